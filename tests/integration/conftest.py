"""Fixtures shared by the integration tests (the session's Neo4j, embedder and MemoryService come from
tests/conftest.py)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import CliRunner, Result

from graphmem import local_neo4j
from graphmem.cli import main
from tests.integration.helpers import clear

FreshGame = Callable[..., str]
"""``fresh_game(log, prefix=None, *, game=None, edit=None)``: see :func:`fresh_game`."""


@pytest.fixture()
def cli(neo4j_uri: str, schema: object, embedder: object) -> Callable[..., Result]:
    """cli(*args, input=None): run ``graphmem --uri <the session's Neo4j> *args`` in-process; ``input`` is stdin.
    The commands embed with the session's embedder (the real model, loaded once: :func:`graphmem.cli.embedder_of`),
    not a model loaded again for each command."""
    def invoke(*args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(main, ["--uri", neo4j_uri, *args], input=input, obj=embedder)
    return invoke


def fresh_log(log: Path, folder: Path, prefix: str | None = None, *, game: str | None = None,
              edit: Callable[[list[str]], list[str]] | None = None) -> tuple[str, Path]:
    """A copy of the canonical log ``log`` in ``folder`` under a fresh game id: (the id, the new file).

    prefix : the id's prefix (default: the log's own game id), followed by 8 random hex digits; game : the exact id
    instead; edit(event_lines) -> event_lines : changes the lines after the header (inserted or dropped events).
    """
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    game = game or f"{prefix or header['game']}-{uuid.uuid4().hex[:8]}"
    header["game"] = game
    events = edit(lines[1:]) if edit else lines[1:]
    path = folder / f"{game}-{uuid.uuid4().hex[:4]}.jsonl"
    path.write_text("\n".join([json.dumps(header), *events]) + "\n", encoding="utf-8")
    return game, path


@pytest.fixture()
def fresh_game(driver: neo4j.Driver, memory: Any, tmp_path: Path) -> Iterator[FreshGame]:
    """fresh_game(log, prefix=None, *, game=None, edit=None): ingest the canonical log ``log`` under a fresh game
    id (see :func:`fresh_log`) through the session's MemoryService, decayed to its last phase as ``graphmem
    ingest`` leaves it; returns the id. Every game made is deleted afterwards."""
    made: list[str] = []

    def make(log: Path, prefix: str | None = None, *, game: str | None = None,
             edit: Callable[[list[str]], list[str]] | None = None) -> str:
        game_id, path = fresh_log(log, tmp_path, prefix, game=game, edit=edit)
        memory.ingest(path)
        made.append(game_id)
        return game_id

    yield make
    for game_id in set(made):
        clear(driver, game_id)


@pytest.fixture(scope="session")
def server(neo4j_uri: str, schema: object, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One ``graphmem serve`` subprocess for the session, against the session's Neo4j, with an engine key
    (tests/integration/server_process.py); ready (the model loaded) before the first test uses it."""
    from tests.integration.server_process import start_server

    running = start_server(neo4j_uri, tmp_path_factory.mktemp("server"), extra_env={"GRAPHMEM_MAX_BODY_BYTES": 2_000_000})
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture()
def engine(server: Any) -> Iterator[Any]:
    """An HTTP client (httpx) of the session's server with the engine key."""
    with server.client() as client:
        yield client


@dataclass
class SpareNeo4j:
    """A second local Neo4j of the session: its Bolt ``uri``, its ``home``, and whether a test has ``used`` it."""

    uri: str
    home: Path
    used: bool = False


@pytest.fixture(scope="session")
def spare_neo4j(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SpareNeo4j]:
    """A local Neo4j beside the session's, started once for the tests that need another server (an empty database,
    one target of several) and stopped when the session ends: every file that asks for it runs on one pytest-xdist
    worker (tests/conftest.py), which starts one JVM for all of them instead of one per file."""
    home = tmp_path_factory.mktemp("neo4j-spare")
    state = local_neo4j.start(home, port=0, timeout=300)
    try:
        yield SpareNeo4j(state.uri, home)
    finally:
        local_neo4j.stop(home)


@pytest.fixture()
def empty_neo4j(spare_neo4j: SpareNeo4j, tmp_path: Path) -> Iterator[str]:
    """The Bolt URI of a Neo4j whose database has never held anything: the spare one while no test has used it
    (the first of its files in collection order), else one started for this test alone."""
    if not spare_neo4j.used:
        spare_neo4j.used = True
        yield spare_neo4j.uri
        return
    home = tmp_path / "empty-neo4j"
    state = local_neo4j.start(home, port=0, timeout=300)
    try:
        yield state.uri
    finally:
        local_neo4j.stop(home)
