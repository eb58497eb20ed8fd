"""``graphmem.MemoryService``: the Python API a game engine (or a notebook) uses in-process.

The service offers what the CLI offers — ingest, live events, phase advance, recall, thoughts, the consolidation and
contradiction jobs, forgetting — on one Neo4j driver::

    from graphmem import MemoryService

    with MemoryService.connect() as memory:          # settings from the environment / graphmem.toml
        memory.start_game({"kind": "game", "format": "graphmem/1", "game": "g-7", "players": [
            {"name": "Marcus", "role": "faithful", "profile": "analytical"},
            {"name": "Sarah", "role": "traitor"}, {"name": "Eleanor", "role": "faithful"}]})
        memory.add_events("g-7", [
            {"kind": "phase", "day": 1, "name": "social"},
            {"kind": "say", "speaker": "Sarah", "to": ["Marcus"], "channel": "private",
             "text": "Eleanor is a traitor, I am sure of it."}])
        memory.advance_phase("g-7")                    # one phase later: memories fade
        memory.push_thought("g-7", "Marcus", "Ask Eleanor where she was last night.", priority=0.8)
        print(memory.recall("g-7", "Marcus", topic="Eleanor").prompt())

The driver belongs to whoever created it: pass your own ``neo4j.Driver`` (the service never closes it) or let
:meth:`MemoryService.connect` open one (closed by :meth:`close` or the ``with`` block). The service is safe to
use from one thread at a time; open one per worker. Every job call is stateless (it reads what it needs from
Neo4j); only a live game's validator and encoder state (:class:`graphmem.ingest.live.LiveGame`) stays in the
process between calls, and a restarted process reopens a game with ``start_game(header, history=...)``. Recall
also keeps the embeddings it has read (:class:`graphmem.recall.vectors.EmbeddingCache`, by game incarnation): a
memory's embedding never changes, so this is a cache of what Neo4j holds, not state, and is read again when lost.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import neo4j

from graphmem.embedding import Embedder, model_dimension
from graphmem.errors import GameConflict, InvalidGameLog, NotFound, UsageProblem
from graphmem.ingest.live import BatchReport, LiveGame, file_game_refusal
from graphmem.ingest.pipeline import IngestSummary
from graphmem.jobs.decay import DecayReport, advance
from graphmem.model import Parameters
from graphmem.settings import Settings, load_settings
from graphmem.store.schema import SchemaReport
from graphmem.store.writer import Progress

if TYPE_CHECKING:
    import networkx as nx

    from graphmem.analysis import QueryResult
    from graphmem.jobs.consolidation import ConsolidationReport
    from graphmem.jobs.contradictions import ContradictionReport
    from graphmem.jobs.forget import ForgetResult
    from graphmem.recall import RecallResult
    from graphmem.recall.vectors import EmbeddingCache
    from graphmem.viz.decay import DecayChart

log = logging.getLogger(__name__)


class MemoryService:
    """Fallible memory for the players of social deduction games, on one Neo4j database.

    driver : neo4j.Driver or None; None opens one from ``settings`` (then the service owns and closes it)
    settings : Settings or None (default: :func:`graphmem.settings.load_settings`)
    params : Parameters or None (default: the shipped parameters with the settings' overrides)
    embedder : Embedder or None (default: the settings' model, loaded on first use)
    recall_cache : int >= 0, the most memories whose vectors recall keeps between calls (default 100,000, ~300 MB
        at 384 dimensions: a text and a context vector each; 0 reads them again at every recall)

    Raises Neo4jUnavailable when it has to open a driver and no Neo4j answers.
    """

    def __init__(self, driver: neo4j.Driver | None = None, *, settings: Settings | None = None,
                 params: Parameters | None = None, embedder: Embedder | None = None,
                 recall_cache: int | None = None) -> None:
        self.settings = settings or load_settings()
        self._owns_driver = driver is None
        if driver is None:
            from graphmem.store.connection import open_driver

            driver = open_driver(self.settings)
        self.driver = driver
        self.database = self.settings.database
        self.params = params or self.settings.parameters()
        self.embedder = embedder or Embedder(self.settings.embedding_model, self.settings.embedding_batch_size)
        self._live: dict[str, LiveGame] = {}
        self._recall_cache_size = recall_cache
        self._recall_cache: EmbeddingCache | None = None

    @classmethod
    def connect(cls, settings: Settings | None = None, **overrides: Any) -> MemoryService:
        """A service with its own driver; ``overrides`` (uri, user, password, database) win over the settings."""
        base = settings or load_settings()
        return cls(settings=base.with_overrides(**overrides))

    def close(self) -> None:
        """Close the driver if the service opened it."""
        if self._owns_driver:
            self.driver.close()

    def __enter__(self) -> MemoryService:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    # -- the database ---------------------------------------------------------------------------------------------

    def init(self, timeout: int = 120) -> SchemaReport:
        """Create the schema (constraints, range, full-text and vector indexes) and wait up to ``timeout`` seconds
        until every index is ONLINE; a no-op when it exists. Upgrades a database written by an earlier graphmem."""
        from graphmem.store.schema import ensure_schema

        return ensure_schema(self.driver, self.database, model_dimension(self.settings.embedding_model), timeout)

    def server_version(self) -> str:
        """The Neo4j server's version, e.g. "5.26.0"."""
        from graphmem.store.connection import server_version

        return server_version(self.driver, self.database)

    def games(self) -> list[dict[str, Any]]:
        """Every stored game: {game, title, imported_from, players, last_phase, decayed_to, complete, live,
        winner}."""
        return self._read("stats/list_games")

    def require_game(self, game: str) -> None:
        """Return when ``game`` is stored; raise NotFound naming the stored (or the closest) game ids otherwise."""
        from graphmem.store.games import require_game

        require_game(self.driver, self.database, game)

    def stats(self, game: str) -> dict[str, dict[str, int]]:
        """Counts of one stored game: {"nodes": {label: n}, "relationships": {type: n}, "memories_by_source": ...,
        "memories_by_state": ..., ...}. Raises NotFound for an unknown game."""
        self.require_game(game)
        result: dict[str, dict[str, int]] = {
            "nodes": {r["label"]: r["count"] for r in self._read("stats/node_counts", game=game)},
            "relationships": {r["type"]: r["count"] for r in self._read("stats/relationship_counts", game=game)},
        }
        for r in self._read("stats/memory_counts", game=game):
            result.setdefault(f"memories_by_{r['dimension']}", {})[str(r["value"])] = r["count"]
        return result

    def delete(self, game: str) -> dict[str, int]:
        """Delete every node and relationship of a stored game (other games are untouched); returns {label: nodes
        deleted}. Raises NotFound for an unknown game. An interrupted delete is finished by calling it again."""
        from graphmem.store.games import delete_game

        self.require_game(game)
        return delete_game(self.driver, self.database, game)

    def _read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        from graphmem.store.queries import cypher

        records, _, _ = self.driver.execute_query(cypher(name), params, database_=self.database,
                                                  routing_=neo4j.RoutingControl.READ)
        return [r.data() for r in records]

    # -- logs in --------------------------------------------------------------------------------------------------

    def ingest(self, *paths: str | Path, fmt: str = "auto", skip_invalid: bool = False, batch_size: int = 1000,
               progress: Progress | None = None,
               on_stage: Callable[[str, int], None] | None = None) -> IngestSummary:
        """Ingest game log files or folders (as ``graphmem ingest``): write each game's memories, decay them to the
        end of the log (SPEC 4) and mark the game complete. Idempotent.

        fmt : "auto" or a format name; batch_size : rows per write transaction; progress(stage, rows) after each
        written batch; on_stage(description, total_rows) before writing.
        Raises InvalidGameLog (nothing written), GameConflict (a different log under a stored id), UsageProblem.
        """
        from graphmem.ingest.pipeline import ingest
        from graphmem.store.writer import mark_complete

        started = time.perf_counter()
        summary = ingest(self.driver, self.database, [Path(p) for p in paths], self.params, self.embedder,
                         fmt=fmt, skip_invalid=skip_invalid, batch_size=batch_size, progress=progress,
                         on_stage=on_stage)
        decay_started = time.perf_counter()
        for game in summary.per_game:
            if game.decay_to is not None:
                advance(self.driver, self.database, game.game, game.decay_to, self.params)
            if not game.unchanged:
                mark_complete(self.driver, self.database, game.game)
        summary.stages["decay"] = time.perf_counter() - decay_started
        summary.seconds = time.perf_counter() - started  # the whole job, decay included
        return summary

    def start_game(self, header: Mapping[str, Any], history: Sequence[Mapping[str, Any]] = ()) -> BatchReport:
        """Open a live game: its canonical header (SPEC 2.1's first line), and, when reopening a stored game (after a
        restart, or in another process), every event sent so far, in order. Replaying the stored events writes
        nothing new; events of ``history`` beyond them are added. A game whose hidden killing side is not called
        "traitor" names its roles in the header: ``"traitor_roles": ["werewolf"]`` (default ``["traitor"]``); those
        players hear the ``traitors`` channel and the murder votes.

        Raises InvalidGameLog for an invalid header or history event; GameConflict, writing nothing, when the game
        is stored from a log file, or when the header or the history do not match the stored game (fewer events
        than stored, or different ones).
        """
        from graphmem.store.queries import cypher
        from graphmem.store.schema import ensure_schema

        live = LiveGame(header, self.params, self.embedder)
        ensure_schema(self.driver, self.database, model_dimension(self.settings.embedding_model))
        records, _, _ = self.driver.execute_query(cypher("ingest/stored_logs"), games=[live.game],
                                                  database_=self.database, routing_=neo4j.RoutingControl.READ)
        events = list(history)
        replayed = 0
        if records:
            stored = records[0]
            if not stored["live"]:
                raise GameConflict(file_game_refusal(live.game))
            replayed = int(stored["log_events"] or 0) if stored["log_sha256"] is not None else 0
            if len(events) < replayed:
                raise GameConflict(f"game '{live.game}' holds {replayed} events in Neo4j, and history has "
                                   f"{len(events)}: nothing was written; reopen it with every event sent so far, in "
                                   "order (start_game(header, history=...))")
            live.decayed_to = int(stored["decayed_to"] or 0)
        self._live[live.game] = live
        # The stored events are replayed as one batch (its claim finds them stored), the new ones as the next.
        batches = [events[:replayed], events[replayed:]] if 0 < replayed < len(events) else [events]
        try:
            reports = [self._add(live, batch) for batch in batches]
        except GameConflict:
            del self._live[live.game]
            raise
        return BatchReport(sum(r.events for r in reports), sum(r.memories for r in reports),
                           sum(r.nodes_created for r in reports), sum(r.relationships_created for r in reports),
                           reports[-1].phase)

    def add_events(self, game: str, events: Sequence[Mapping[str, Any]]) -> BatchReport:
        """Add events of a live game, in order (validated as a log file would be; see :meth:`start_game`).

        A ``phase`` event moves the game on, and its memories are decayed to the new phase.
        Raises NotFound when the game was not started in this process, InvalidGameLog for the first bad event
        (the events before it are stored).
        """
        return self._add(self._game(game), events)

    def _add(self, live: LiveGame, events: Sequence[Mapping[str, Any]]) -> BatchReport:
        """Write a batch of ``live``, then decay the game to its newest phase (also when an invalid event stopped
        the batch after the valid events before it were written)."""
        try:
            report = live.add(self.driver, self.database, events)
        except InvalidGameLog:
            self._decay_live(live)
            raise
        self._decay_live(live)
        return report

    def _decay_live(self, live: LiveGame) -> None:
        if live.phase > live.decayed_to:
            advance(self.driver, self.database, live.game, live.phase, self.params)
            live.decayed_to = live.phase

    def add_event(self, game: str, event: Mapping[str, Any]) -> BatchReport:
        """One event of a live game (see :meth:`add_events`)."""
        return self.add_events(game, [event])

    def _game(self, game: str) -> LiveGame:
        try:
            return self._live[game]
        except KeyError:
            raise NotFound(f"game '{game}' is not open in this process: call start_game(header, history=...) "
                           f"first (open games: {', '.join(sorted(self._live)) or 'none'})") from None

    # -- time -----------------------------------------------------------------------------------------------------

    def advance_phase(self, game: str, to: int | None = None, *, batch_size: int = 10_000) -> DecayReport:
        """Run the decay job (SPEC 4): to phase ``to``, or one phase on; ``batch_size`` memories per write
        transaction. Idempotent for the same phase. Raises NotFound for an unknown game, UsageProblem for an
        earlier phase."""
        report = advance(self.driver, self.database, game, to, self.params, batch_size=batch_size)
        if game in self._live:
            self._live[game].decayed_to = max(self._live[game].decayed_to, report.to_phase)
        return report

    # -- recall and working memory --------------------------------------------------------------------------------

    def recall(self, game: str, player: str, topic: str | None = None, *, participants: Sequence[str] = (),
               at: int | None = None, k: int | None = None, seed: int | None = None,
               dry_run: bool = False) -> RecallResult:
        """What ``player`` remembers for a dialogue about ``topic`` with ``participants`` (SPEC 6), reconsolidated
        and written back unless ``dry_run`` (or ``at`` is an earlier phase). ``result.prompt()`` is the block.

        Raises NotFound for an unknown game, player or participant; UsageProblem for ``at`` outside 0..the
        game's phase. These are checked before the embedding model is loaded.
        """
        from graphmem.recall import check_request, recall

        check_request(self.driver, self.database, game, player, participants, at)
        return recall(self.driver, self.database, game, player, topic=topic, participants=participants, at=at,
                      k=k, seed=self.settings.seed if seed is None else seed, params=self.params,
                      embedder=self.embedder, dry_run=dry_run, cache=self.recall_cache)

    @property
    def recall_cache(self) -> EmbeddingCache:
        """The embeddings recall keeps between calls (created on first use; see the class docstring)."""
        if self._recall_cache is None:
            from graphmem.recall.vectors import DEFAULT_MAX_MEMORIES, EmbeddingCache

            size = self._recall_cache_size
            self._recall_cache = EmbeddingCache(DEFAULT_MAX_MEMORIES if size is None else size)
        return self._recall_cache

    def push_thought(self, game: str, player: str, content: str, *, priority: float = 0.5, persistence: int = 2,
                     trigger: str = "api") -> str:
        """Push a thought into ``player``'s working memory at the game's current phase (SPEC 7); returns its uid.

        priority : float in [0, 1]; persistence : int >= 0, phases it stays. Beyond the player's capacity the
        lowest priority goes (oldest first). Raises NotFound for an unknown game or player, UsageProblem for a
        murdered or banished player, empty content, a priority outside [0, 1] or a negative persistence.
        """
        from graphmem.jobs.decay import refresh_working_memory
        from graphmem.model.working_memory import WorkingMemoryItem
        from graphmem.store.queries import cypher

        if not content.strip():
            raise UsageProblem("a thought needs text: content is empty")
        WorkingMemoryItem(content, priority, persistence, trigger, 0)  # validates priority and persistence
        records, _, _ = self.driver.execute_query(
            cypher("ingest/push_thought"), game=game, player=player, content=content, priority=priority,
            persistence=persistence, trigger=trigger, database_=self.database)
        if not records:
            self._missing(game, player)
        if records[0]["uid"] is None:
            raise UsageProblem(f"{player} was {records[0]['status']} in game '{game}': an eliminated player has no "
                               "working memory")
        refresh_working_memory(self.driver, self.database, game, int(records[0]["pushed_phase"]), self.params)
        return str(records[0]["uid"])

    def _missing(self, game: str, player: str) -> None:
        from graphmem.store.games import require_game

        require_game(self.driver, self.database, game)
        raise NotFound(f"no player '{player}' in game '{game}'")

    # -- jobs -----------------------------------------------------------------------------------------------------

    def consolidate(self, game: str, player: str | None = None, *, dry_run: bool = False,
                    progress: Callable[[str, int], None] | None = None) -> ConsolidationReport:
        """Consolidate clusters of similar memories into summaries (SPEC 11), per player; progress(owner, n)
        after each owner."""
        from graphmem.jobs.consolidation import consolidate

        return consolidate(self.driver, self.database, game, self.params, player=player, dry_run=dry_run,
                           progress=progress)

    def contradictions(self, game: str, player: str | None = None, *, dry_run: bool = False,
                       progress: Callable[[str, int], None] | None = None) -> ContradictionReport:
        """Detect and store conflicting memories (SPEC 9); identity conflicts resolve once the truth is seen;
        progress(owner, n) after each owner."""
        from graphmem.jobs.contradictions import find_contradictions

        return find_contradictions(self.driver, self.database, game, self.params, player=player, dry_run=dry_run,
                                   progress=progress)

    def forget(self, game: str, player: str, memory: str, reason: str | None = None) -> ForgetResult:
        """Tombstone one memory of ``player`` on request (kept for audit, never recalled again)."""
        from graphmem.jobs.forget import forget

        return forget(self.driver, self.database, game, player, memory, self.params, reason)

    # -- analysis and pictures ------------------------------------------------------------------------------------

    def query(self, name: str, params: Mapping[str, str]) -> QueryResult:
        """Run the analysis query ``name`` (``cypher/analysis/NAME.cypher``) in a read transaction.

        params : {parameter: value as text}, typed by the query's header (its defaults fill the rest).
        Raises UnknownQuery or UsageProblem for a bad name or value, NotFound for an unknown ``game``.
        """
        from graphmem.analysis import analysis_query, bind_params, run_read

        chosen = analysis_query(name)
        bound = bind_params(chosen, params)
        if isinstance(bound.get("game"), str):
            self.require_game(bound["game"])
        return run_read(self.driver, self.database, chosen, bound)

    def told_graph(self, game: str, day: int | None = None) -> nx.MultiDiGraph:
        """Who told whom in ``game`` (on ``day`` only, when given) as a networkx multigraph (see
        :mod:`graphmem.viz.told`). Raises NotFound for an unknown game, UsageProblem for a day it does not have."""
        from graphmem.viz.told import check_day, fetch_told_graph

        self.require_game(game)
        if day is not None:
            check_day(self.driver, self.database, game, day)
        return fetch_told_graph(self.driver, self.database, game, day)

    def decay_chart(self, game: str, player: str) -> DecayChart:
        """Each memory of ``player`` in ``game``: its strength over the phases (see :mod:`graphmem.viz.decay`)."""
        from graphmem.viz.decay import fetch_decay_chart

        return fetch_decay_chart(self.driver, self.database, game, player, self.params)
