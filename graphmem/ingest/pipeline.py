"""The ingest job: game logs in, memories in Neo4j.

1. find and validate every file first (canonical JSONL or any importer's format); any problem stops the whole run
   before anything is written, unless ``skip_invalid`` (then each file's valid events are written and the
   rejected ones reported); a stored game is checked against its log's hash (:func:`refuse_changed_logs`): a
   different log is refused, and a game stored completely from this very log is skipped from step 3 on;
2. encode each game (perception, salience, encoding, working memory: :mod:`graphmem.ingest.encode`);
3. embed every distinct memory text once, in batches (:class:`graphmem.embedding.Embedder`);
4. link rumour chains (:mod:`graphmem.ingest.rumours`);
5. write each game in idempotent batches (:mod:`graphmem.store.writer`), and say in its :class:`GameSummary`
   which phase the decay job must bring it to (``decay_to``): the log's last phase, so that the stored state
   describes the end of the log, or, for a game already decayed past it, that phase, so that the new memories
   fade to it too.

The caller then runs the decay job and marks each game complete (:meth:`graphmem.service.MemoryService.ingest`
does both): a game written but not yet decayed stays incomplete, so an interrupted run is completed by the next.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import neo4j
from pydantic import ValidationError

from graphmem.embedding import Embedder
from graphmem.errors import GameConflict, InvalidGameLog, UsageProblem
from graphmem.importers import discover, load_game_log
from graphmem.ingest.encode import EncodedGame, check_profiles, encode_game
from graphmem.ingest.rumours import link_rumours
from graphmem.logs import GameLog
from graphmem.logs.schema import SeriesSpec
from graphmem.logs.writer import log_sha256
from graphmem.model import Parameters
from graphmem.store.queries import cypher
from graphmem.store.schema import ensure_schema
from graphmem.store.series import join_series, placed
from graphmem.store.writer import Progress, WriteCounts, write_game_rows

log = logging.getLogger(__name__)


@dataclass
class GameSummary:
    """One ingested game: its id, the file, and what it holds."""

    game: str
    path: str
    format: str
    events: int
    """The log's events, as ``graphmem convert`` and a live game's ``total_events`` count them (phase events
    included; each phase is stored as a Phase node, an ``emotion`` or a thought without ``procedural`` on what it
    changes, so the game's Event nodes, which ``graphmem stats`` counts, are fewer)."""
    memories: int
    players: int
    relationships_created: int
    nodes_created: int
    rejected: list[str] = field(default_factory=list)
    unchanged: bool = False
    """Already stored, completely, from this very log: nothing was embedded or written."""
    guesses: list[str] = field(default_factory=list)
    """The keywords the importer read as near spellings of known ones ("PATH: WHERE: read 'X' as 'Y' (canonical
    line N)"), see :mod:`graphmem.importers.keywords`."""
    decay_to: int | None = None
    """The phase the decay job must bring the game to before it is complete (None: no decay needed)."""
    series: str | None = None
    """The series of games it belongs to (docs/model.md#series-of-games), None when none."""
    series_position: int | None = None
    """Its position in that series (1-based), None when in none."""


@dataclass
class IngestSummary:
    """The result of one ingest run (``graphmem ingest --json`` prints it).

    games, events, memories, players : totals over the ingested logs (``events``: the logs' events, see
        :attr:`GameSummary.events`)
    nodes_created, relationships_created : what the database created (0 when everything was already stored)
    seconds : wall time; embedding_seconds, texts_embedded : the time inside the embedding model and the texts it
        encoded while this run embedded its memories (texts it had embedded before are not encoded again; on an
        embedder shared with concurrent callers, a server's, their texts of that moment count too)
    rejected : the lines left out (``skip_invalid``); guesses : the keywords read as near spellings, every game's
    stages : seconds per stage of the job, {"validate", "encode", "embed", "link", "write", "decay"} (validate:
        reading and checking the logs; encode: perception, salience, encoding, working memory; embed: the embedding
        model and its cache; link: rumour chains; write: every batched write; decay: the decay job to the end of
        each log, run by :meth:`graphmem.service.MemoryService.ingest`)
    """

    games: int = 0
    events: int = 0
    memories: int = 0
    players: int = 0
    nodes_created: int = 0
    relationships_created: int = 0
    texts_embedded: int = 0
    embedding_seconds: float = 0.0
    seconds: float = 0.0
    stages: dict[str, float] = field(default_factory=dict)
    per_game: list[GameSummary] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    guesses: list[str] = field(default_factory=list)

    def add(self, game: GameSummary) -> None:
        """Count one game in: its entry in ``per_game``, the totals, its rejected lines and its guesses."""
        self.per_game.append(game)
        self.rejected.extend(game.rejected)
        self.guesses.extend(game.guesses)
        self.games += 1
        self.events += game.events
        self.memories += game.memories
        self.players += game.players
        self.nodes_created += game.nodes_created
        self.relationships_created += game.relationships_created

    @property
    def memories_ingested(self) -> int:
        """Memories of the logs that were ingested, not skipped as already stored."""
        return sum(g.memories for g in self.per_game if not g.unchanged)

    @property
    def memories_per_second(self) -> float:
        """Memories of the ingested (not skipped) logs per second of wall time; 0.0 when nothing was ingested."""
        return self.memories_ingested / self.seconds if self.seconds else 0.0


def load_logs(paths: Sequence[Path], fmt: str, skip_invalid: bool) -> list[tuple[Path, str, GameLog]]:
    """Find and validate every game log under ``paths`` (files or folders).

    fmt : "auto" or a format name ("graphmem", "traitors-plomp", ...)
    Raises InvalidGameLog holding the problems of every invalid file (the path of each problem is in its message),
    or UsageProblem when a path does not exist or holds no game log.
    """
    for path in paths:
        if not path.exists():
            raise UsageProblem(f"{path}: no such file or directory")
    found = discover(list(paths), None if fmt == "auto" else fmt)  # a given format: its logs, or "not a F log"
    if not found:
        raise UsageProblem(f"no game logs found in {', '.join(map(str, paths))}")
    loaded: list[tuple[Path, str, GameLog]] = []
    failures: list[InvalidGameLog] = []
    for path, chosen in found:
        try:
            loaded.append((path, chosen, load_game_log(path, chosen, skip_invalid=skip_invalid)))
        except InvalidGameLog as e:
            failures.append(e)
    if failures:
        if len(failures) == 1:
            raise failures[0]
        problems = [replace(p, file=e.path) for e in failures for p in e.problems]
        raise InvalidGameLog(f"{len(failures)} files", problems)
    files_of: dict[str, list[str]] = {}
    for path, _, game_log in loaded:
        files_of.setdefault(game_log.game, []).append(str(path))
    duplicates = {game: files for game, files in sorted(files_of.items()) if len(files) > 1}
    if duplicates:
        raise UsageProblem("the same game id appears in several files: " + "; ".join(
            f"{game} in {', '.join(files)}" for game, files in duplicates.items()))
    return loaded


def ingest(driver: neo4j.Driver, database: str | None, paths: Sequence[Path], params: Parameters,
           embedder: Embedder, *, fmt: str = "auto", skip_invalid: bool = False, batch_size: int = 1000,
           progress: Progress | None = None, on_stage: Callable[[str, int], None] | None = None,
           series: str | None = None) -> IngestSummary:
    """Validate, encode, embed and write every game log under ``paths`` (see the module docstring); the caller
    decays each game to its ``decay_to``, marks it complete, and brings the series it joined to their present
    (:func:`graphmem.jobs.series.catch_up`).

    series : the series every game joins (docs/model.md#series-of-games), in the order the logs are read, after the
        series' stored games (a header's own ``series`` gives its name and may give the position; a log that names
        another series is refused). None: only the games whose header names a series join one.
    progress(stage, rows) is called after each written batch; on_stage(description, total_rows) before writing.
    Raises InvalidGameLog (nothing written), UsageProblem (also for ``batch_size`` < 1), GameConflict (a different
    log under a stored id; a game already in another series or at another position, or a position taken: nothing
    written), EmbeddingError, or the driver's errors.
    """
    if batch_size < 1:
        raise UsageProblem(f"batch_size must be at least 1, not {batch_size}")
    started = clock = time.perf_counter()
    stages = dict.fromkeys(("validate", "encode", "embed", "link", "write"), 0.0)

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        stages[stage] += now - clock
        clock = now

    loaded = load_logs(paths, fmt, skip_invalid)
    problems = [p if len(loaded) == 1 else replace(p, file=str(path))
                for path, _, game_log in loaded for p in check_profiles(game_log, params)]
    if problems:
        raise InvalidGameLog(str(loaded[0][0]) if len(loaded) == 1 else f"{len(loaded)} files", problems)
    hashes = {game_log.game: log_sha256(game_log) for _, _, game_log in loaded}
    records, _, _ = driver.execute_query(cypher("ingest/stored_logs"), games=list(hashes), database_=database,
                                         routing_=neo4j.RoutingControl.READ)
    stored = {r["game"]: r for r in records}
    unchanged = refuse_changed_logs(stored, [(path, game_log, hashes[game_log.game]) for path, _, game_log in loaded])
    placements = place_in_series(driver, database, [game_log for _, _, game_log in loaded], series)
    lap("validate")
    encoded = [encode_game(game_log, params) for _, _, game_log in loaded]
    to_write = [game for game in encoded if game.game.uid not in unchanged]
    lap("encode")
    uids = [m.uid for game in to_write for m in game.memories]
    encoded_before, seconds_before = embedder.encoded, embedder.seconds
    vectors = embedder.encode([m.embedded for game in to_write for m in game.memories])
    by_uid = dict(zip(uids, vectors))
    dimensions = int(vectors.shape[1]) if len(uids) else embedder.dimension
    lap("embed")
    ensure_schema(driver, database, dimensions)
    lap("write")

    summary = IngestSummary(texts_embedded=embedder.encoded - encoded_before,
                            embedding_seconds=embedder.seconds - seconds_before)
    if on_stage:
        on_stage("writing", sum(_rows(game) for game in to_write))

    def join(game_log: GameLog) -> tuple[int, int]:
        """Put the stored game into the series it was placed in, if any (a game stored before may join one later:
        its series and people are created then): (nodes, relationships) created; (0, 0) outside a series."""
        placement = placements.get(game_log.game)
        if placement is None:
            return 0, 0
        joined = join_series(driver, database, placement[0], game_log.game, [p.name for p in game_log.header.players],
                             placement[1], params.series.gap)
        return joined.nodes_created, joined.relationships_created

    for (path, chosen, game_log), game in zip(loaded, encoded):
        rejected = [f"{path}: {p}" for p in game_log.rejected]
        guesses = [f"{path}: {g}" for g in game_log.guesses]
        placement = placements.get(game.game.uid)
        if game.game.uid in unchanged:
            nodes, relationships = join(game_log)
            summary.add(GameSummary(game.game.uid, str(path), chosen, len(game_log.events), len(game.memories),
                                    len(game.players), relationships, nodes, rejected, unchanged=True, guesses=guesses,
                                    series=placement[0] if placement else None,
                                    series_position=placement[1] if placement else None))
            continue
        derived = link_rumours(game, by_uid, params.similarity.rumour_chain)
        lap("link")
        embeddings = {m.uid: by_uid[m.uid].tolist() for m in game.memories}
        counts: WriteCounts = write_game_rows(driver, database, game, embeddings, derived,
                                                 batch_size=batch_size, progress=progress,
                                                 log_sha256=hashes[game.game.uid], log_events=len(game_log.events))
        nodes, relationships = join(game_log)
        lap("write")
        known = stored.get(game.game.uid)
        decayed_to = int(known["decayed_to"] or 0) if known else 0  # a new Game node starts at 0
        decay_to = (game.game.last_phase if decayed_to < game.game.last_phase
                    # a longer log of a game already decayed past its end: the new memories too
                    else decayed_to if counts.nodes_created else None)
        summary.add(GameSummary(game.game.uid, str(path), chosen, len(game_log.events), len(game.memories),
                                len(game.players), counts.relationships_created + relationships,
                                counts.nodes_created + nodes, rejected,
                                decay_to=decay_to, guesses=guesses,
                                series=placement[0] if placement else None,
                                series_position=placement[1] if placement else None))
    summary.seconds = time.perf_counter() - started
    summary.stages = stages
    log.info("ingested %d games (%d memories) in %.1f s", summary.games, summary.memories, summary.seconds)
    return summary


def place_in_series(driver: neo4j.Driver, database: str | None, logs: Sequence[GameLog],
                    series: str | None) -> dict[str, tuple[str, int]]:
    """{game id: (series, position)} of each log that joins a series: its header's ``series`` or ``series`` given,
    positions checked against the stored series and each other (:func:`graphmem.store.series.placed`) before
    anything is written. Raises UsageProblem for a log whose header names another series than ``series``;
    GameConflict as :func:`~graphmem.store.series.placed`."""
    if series is not None:
        try:
            SeriesSpec(name=series)
        except ValidationError as e:
            reason = str(e.errors()[0]["msg"]).removeprefix("Value error, ").replace("a game id", "a series name")
            raise UsageProblem(f"series name {series!r}: {reason}") from None
    out: dict[str, tuple[str, int]] = {}
    joining: dict[str, dict[int, str]] = {}
    for game_log in logs:
        spec = game_log.header.series
        if series is not None and spec is not None and spec.name != series:
            raise UsageProblem(f"{game_log.source}: game '{game_log.game}' names series '{spec.name}' in its header, "
                               f"not '{series}'")
        name = spec.name if spec is not None else series
        if name is None:
            continue
        also = joining.setdefault(name, {})
        position = placed(driver, database, name, game_log.game, spec.position if spec else None, also)
        also[position] = game_log.game
        out[game_log.game] = (name, position)
    return out


def refuse_changed_logs(stored: Mapping[str, Mapping[str, Any]],
                        logs: Sequence[tuple[Path, GameLog, str]]) -> set[str]:
    """Raise GameConflict, before anything is written, when one of ``logs`` (path, log, :func:`log_sha256` of
    it) names a stored game that came from a different log or is fed live. The same log again passes (ingest is
    idempotent), and so does a longer log that begins with the stored one (the game went on); so does a game
    stored without a hash.

    stored : {game id: row of ``cypher/ingest/stored_logs.cypher``} for the stored ones among them.
    Returns the ids of the games stored completely from these very logs: there is nothing to embed or write."""
    clashes = []
    unchanged = set()
    for path, game_log, sha in logs:
        known = stored.get(game_log.game)
        if known is None:
            continue
        if known["live"]:
            clashes.append(f"{path}: game '{game_log.game}' is stored as a live game (fed through MemoryService)")
        elif known["log_sha256"] is not None:
            events = int(known["log_events"] or 0)
            if len(game_log.events) < events:
                clashes.append(f"{path}: game '{game_log.game}' is stored from a longer log ({events} events, "
                               f"this one has {len(game_log.events)})")
            elif (sha if events == len(game_log.events) else log_sha256(game_log, events)) != known["log_sha256"]:
                clashes.append(f"{path}: game '{game_log.game}' is stored from a different log (its first {events} "
                               "events or its header differ; an event without an `id` is numbered by its line, so a "
                               "line added or removed before it, a blank one too, changes it)")
            elif events == len(game_log.events) and known["complete"]:
                unchanged.add(game_log.game)
    if clashes:
        raise GameConflict("; ".join(clashes) + ": nothing was written. Ingest the changed log under a new game id, "
                           "or delete the stored game first with `graphmem delete --game GAME`")
    return unchanged


def _rows(game: EncodedGame) -> int:
    return (len(game.players) + len(game.phases) + len(game.events) + len(game.memories) + len(game.told)
            + len(game.thoughts))
