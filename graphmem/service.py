"""``graphmem.MemoryService``: the Python API a game engine (or a notebook) uses in-process.

The service offers what the CLI offers — ingest, live events, phase advance, recall, thoughts, the consolidation and
contradiction jobs, forgetting — on one Neo4j driver::

    from graphmem import MemoryService

    with MemoryService.connect() as memory:          # settings from the environment / graphmem.toml
        memory.start_game({"kind": "game", "format": "graphmem/1", "game": "g-7", "players": [
            {"name": "Marcus", "role": "faithful", "profile": "analytical"},
            {"name": "Sarah", "role": "traitor"}, {"name": "Eleanor", "role": "faithful"}]})
        memory.add_events("g-7", [                     # a phase event decays the game to that phase
            {"kind": "phase", "day": 1, "name": "social"},
            {"kind": "say", "speaker": "Sarah", "to": ["Marcus"], "channel": "private",
             "text": "Eleanor is a traitor, I am sure of it."}])
        memory.advance_phase("g-7", day=1, name="roundtable")  # the next phase: memories fade
        memory.push_thought("g-7", "Marcus", "Ask Eleanor where she was last night.", priority=0.8)
        print(memory.recall("g-7", "Marcus", topic="Eleanor").prompt())

The driver belongs to whoever created it: pass your own ``neo4j.Driver`` (the service never closes it) or let
:meth:`MemoryService.connect` open one (closed by :meth:`close` or the ``with`` block). The service is thread-safe
(``graphmem serve`` shares one per process between its request threads): the driver is, the embedder batches
concurrent callers, and live games are taken one batch at a time per game. No call keeps game state that Neo4j does
not hold: a live game's state is rebuilt from the stored header and event log (and cached, checked against the
stored event count and hash), so any process, or a restarted one, goes on with any game
(:mod:`graphmem.ingest.live`). Recall keeps the embeddings it has read (:class:`graphmem.recall.vectors.EmbeddingCache`,
by game incarnation): a memory's embedding never changes, so this is a cache of what Neo4j holds, not state, and is
read again when lost; and it reads each owner's candidates through the process's reader
(:class:`graphmem.store.reader.MemoryReader`), which holds them between calls while the owner's memory version says
they are the stored ones. The first call that embeds something loads the model (about 1 s; about 15 s more the first
time a machine exports it to ONNX, graphmem.encoders); :meth:`warm_up` loads it ahead.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import neo4j

from graphmem.embedding import Embedder, model_dimension, settings_embedder
from graphmem.errors import GameConflict, NotFound, UsageProblem
from graphmem.ingest.live import BatchReport, LiveGames
from graphmem.ingest.pipeline import IngestSummary
from graphmem.jobs.decay import DecayReport, advance
from graphmem.logs.schema import nfc
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
    from graphmem.jobs.series_consolidation import SeriesConsolidationReport
    from graphmem.recall import RecallResult
    from graphmem.store.idempotency import Answer
    from graphmem.store.tokens import PlayerGrant
    from graphmem.viz.decay import DecayChart

log = logging.getLogger(__name__)



def _check_text(field: str, text: str | None) -> None:
    """UsageProblem naming ``field`` when ``text`` is not valid Unicode (a lone surrogate: Neo4j cannot store it)."""
    from graphmem.logs.schema import check_unicode

    if text is not None:
        try:
            check_unicode(text)
        except ValueError as e:
            raise UsageProblem(f"{field}: {e}", field=field) from None


class MemoryService:
    """Fallible memory for the players of social deduction games, on one Neo4j database.

    driver : neo4j.Driver or None; None opens one from ``settings`` (then the service owns and closes it)
    settings : Settings or None (default: :func:`graphmem.settings.load_settings`)
    params : Parameters or None (default: the shipped parameters with the settings' overrides)
    embedder : Embedder or None (default: the settings' model, loaded on first use)
    recall_cache : int >= 0, the most memories whose vectors recall keeps between calls (default 100,000, ~150 MB
        at 384 dimensions: a text vector each; 0 reads them again at every recall), and the most candidates its
        reader holds (``memory_reader``)

    A service that owns its driver (``driver`` None, or :meth:`connect`) answers a writing recall once its write has
    committed and raises the owner's memory version the second time on the thread of its reader
    (``memory_reader``, :class:`graphmem.store.reader.MemoryReader` with ``background``); :meth:`close` waits for
    those raises before it closes the driver. One on a caller's driver waits for each raise, unless the caller sets
    ``service.memory_reader.background = True`` and closes the service before the driver.

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
        self.embedder = embedder or settings_embedder(self.settings)
        self.live = LiveGames(self.driver, self.database, self.params, self.embedder)
        """The live games this service feeds (it caches their rebuilt state, validated against Neo4j)."""
        self.recall_retries = 0
        """Recalls run again because a concurrent recall wrote the same memories first."""
        from graphmem.recall.vectors import DEFAULT_MAX_MEMORIES, EmbeddingCache
        from graphmem.store.reader import MemoryReader

        size = DEFAULT_MAX_MEMORIES if recall_cache is None else recall_cache
        self.recall_cache = EmbeddingCache(size)
        """The memories' vectors recall keeps between calls (see the module docstring); shared by the request
        threads."""
        self.memory_reader = MemoryReader(size, background=self._owns_driver)
        """What recall reads each owner's candidates through, holds of them between calls and writes through
        (:mod:`graphmem.store.reader`); shared by the request threads."""

    @classmethod
    def connect(cls, settings: Settings | None = None, *, check: bool = True, retry_seconds: float | None = None,
                params: Parameters | None = None, embedder: Embedder | None = None,
                **overrides: Any) -> MemoryService:
        """A service with its own driver: the one assembly point from settings to driver, parameters, embedder and
        service, used by the CLI, ``graphmem serve`` (each worker) and ``graphmem mcp``. The service owns the
        driver (:meth:`close` or the ``with`` block closes it).

        settings : default :func:`graphmem.settings.load_settings`; overrides (uri, user, password, database) win
        over them. check : check that Neo4j answers now (False: a server that starts before Neo4j, its ``/ready``
        says when it answers); retry_seconds : how long a transaction is retried on a lost connection (None: the
        settings' ``retry_seconds``, default 30); params, embedder : as in the constructor (the services of several
        targets share one embedder: graphmem.targets).
        Raises Neo4jUnavailable (with ``check``), InvalidNeo4jUri, ConfigError.
        """
        from graphmem.store.connection import open_driver

        base = (settings or load_settings()).with_overrides(**overrides)
        driver = open_driver(base, check=check, max_retry_seconds=retry_seconds)
        try:
            service = cls(driver, settings=base, params=params, embedder=embedder)
        except BaseException:
            driver.close()
            raise
        service._owns_driver = True
        service.memory_reader.background = True  # close() settles before it closes the driver it owns
        return service

    def close(self) -> None:
        """Finish the work writing recalls left after they returned (the second raise of the owners' memory versions:
        :meth:`graphmem.store.reader.MemoryReader.settle`), then close the driver if the service opened it."""
        self.memory_reader.settle()
        if self._owns_driver:
            self.driver.close()

    def warm_up(self, *, queries: bool = True) -> float:
        """Load the embedding model and embed one text, and check that Neo4j answers; returns the seconds taken
        (about 1 s the first time in a process, plus about 15 s the first time on a machine, ~0 after). Otherwise the
        first call that embeds something (a recall with a topic, a live batch, an ingest) pays for loading the model.

        queries : also run the queries of a live batch, of the decay that follows it and of a recall once per
        combination of null and given optional parameters, on no game and in transactions rolled back (so Neo4j has
        planned them), and import the recall pipeline, so that the first batch and the first recalls are as fast as
        later ones (:func:`graphmem.store.warm.plan_queries`; a few seconds). ``graphmem serve`` warms up so before
        ``/ready`` says 200. Raises EmbeddingError, Neo4jUnavailable."""
        from graphmem.store.connection import server_version

        started = time.perf_counter()
        self.embedder.encode_one("warm up")
        server_version(self.driver, self.database)
        if queries:
            import graphmem.recall.pipeline  # noqa: F401  (its imports: the first recall would pay for them)
            from graphmem.store.warm import plan_queries

            plan_queries(self.driver, self.database)
        return time.perf_counter() - started

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

    def series(self) -> list[dict[str, Any]]:
        """Every stored series of games: [{series, games}], by name."""
        return self._read("stats/series_names")

    def require_series(self, series: str) -> None:
        """Return when the series of games ``series`` is stored; raise NotFound naming the stored series (or the
        closest names) otherwise."""
        from graphmem.errors import closest

        names = [str(r["series"]) for r in self.series()]
        if series in names:
            return
        if not names:
            raise NotFound(f"no series '{series}' is stored (no series is: `graphmem ingest --series NAME PATH...` "
                           "makes one)")
        shown = ", ".join(names) if len(names) <= 12 else ", ".join(closest(series, names, n=5) or names[:5])
        raise NotFound(f"no series '{series}' is stored (stored series: {shown})")

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
        deleted}. Raises NotFound for an unknown game, GameMoving for one being moved to another target (finish the
        move, then delete it there). An interrupted delete is finished by calling it again."""
        from graphmem.store.games import delete_game, refuse_if_moving

        self.require_game(game)
        with self.driver.session(database=self.database, default_access_mode=neo4j.READ_ACCESS) as session:
            session.execute_read(refuse_if_moving, game)
        deleted = delete_game(self.driver, self.database, game)
        self.live.forget(game)
        return deleted

    def _read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        from graphmem.store.queries import cypher

        records, _, _ = self.driver.execute_query(cypher(name), params, database_=self.database,
                                                  routing_=neo4j.RoutingControl.READ)
        return [r.data() for r in records]

    # -- logs in --------------------------------------------------------------------------------------------------

    def ingest(self, *paths: str | Path, fmt: str = "auto", skip_invalid: bool = False, batch_size: int = 1000,
               progress: Progress | None = None, on_stage: Callable[[str, int], None] | None = None,
               series: str | None = None) -> IngestSummary:
        """Ingest game log files or folders (as ``graphmem ingest``): write each game's memories, decay them to the
        end of the log (docs/model.md#forgetting) and mark the game complete. Idempotent.

        fmt : "auto" or a format name; batch_size : rows per write transaction; progress(stage, rows) after each
        written batch; on_stage(description, total_rows) before writing.
        series : the series of games every log joins, in the order they are read, after the series' stored games
            (docs/model.md#series-of-games; a header's ``series`` does the same for its game); the earlier games of
            each series joined are then decayed to the series' present (:func:`graphmem.jobs.series.catch_up`).
        Raises InvalidGameLog (nothing written), GameConflict (a different log under a stored id, a game in another
        series or a position taken), UsageProblem.
        """
        from graphmem.ingest.pipeline import ingest
        from graphmem.jobs.settle import settle_ingested

        started = time.perf_counter()
        summary = ingest(self.driver, self.database, [Path(p) for p in paths], self.params, self.embedder,
                         fmt=fmt, skip_invalid=skip_invalid, batch_size=batch_size, progress=progress,
                         on_stage=on_stage, series=series)
        decay_started = time.perf_counter()
        settle_ingested(self.driver, self.database, summary.per_game, self.params)
        summary.stages["decay"] = time.perf_counter() - decay_started
        summary.seconds = time.perf_counter() - started  # the whole job, decay included
        return summary

    def start_game(self, header: Mapping[str, Any], history: Sequence[Mapping[str, Any]] = ()) -> BatchReport:
        """Open a live game: store its canonical header (docs/log-format.md's first line) and, when ``history`` is given, its
        first events. A player may come without ``role`` and get it from :meth:`set_roles` before the first event.
        A header with ``"series": {"name": ..., "position": ...}`` joins a series of games
        (docs/model.md#series-of-games): the players meet their earlier selves' memories. A game whose hidden killing
        side is not called "traitor" names its roles in the header:
        ``"traitor_roles": ["werewolf"]`` (default ``["traitor"]``); those players hear the ``traitors`` channel
        and the murder votes.

        Reopening a stored live game (an engine that restarted and wants to check its history against the store)
        takes every event sent so far, in order: those stored write nothing, those beyond are added. A process
        needs no reopening to go on with a game: :meth:`add_events` works in any process (nothing of a game is
        kept between calls that Neo4j does not hold; see :mod:`graphmem.ingest.live`).

        Raises InvalidGameLog for an invalid header or history event (nothing of the history written);
        GameConflict, writing nothing, when the game is stored from a log file, stored live with another header,
        or holds more events than ``history`` or other ones.
        """
        from graphmem.jobs.series import catch_up
        from graphmem.store.schema import ensure_schema
        from graphmem.store.series import join_series

        ensure_schema(self.driver, self.database, model_dimension(self.settings.embedding_model))
        fresh, created, status = self.live.open(header)
        series = fresh.header.series
        if series is not None:  # a game of a series: its players are the series' people, met again
            join_series(self.driver, self.database, series.name, fresh.game, [p.name for p in fresh.header.players],
                        series.position, self.params.series.gap)
            catch_up(self.driver, self.database, series.name, self.params)
        events = list(history)
        if status is not None and len(events) < status.log_events:
            raise GameConflict(f"game '{fresh.game}' holds {status.log_events} events in Neo4j, and history has "
                               f"{len(events)}: nothing was written; reopen it with every event sent so far, in "
                               "order (start_game(header, history=...)), or go on with add_events(game, events, "
                               f"after={status.log_events})")
        if not events:
            held = status.log_events if status else 0
            return BatchReport(0, 0, 0, 0, status.last_phase if status else 0, held, held)
        return self.add_events(fresh.game, events, after=0)

    def set_roles(self, game: str, roles: Mapping[str, str]) -> None:
        """Give players their roles ({player: role}): any role before the game's first event, the roles not set yet
        after it (events that need a missing role are refused until then; see :mod:`graphmem.ingest.live`). Raises
        NotFound for an unknown game or player, GameConflict for a role set already once events are stored (roles
        then change only through ``recruit`` events), InvalidGameLog when the header becomes invalid (e.g. a role of
        ``traitor_roles`` no longer held)."""
        self.live.set_roles(game, roles)

    def add_events(self, game: str, events: Sequence[Mapping[str, Any]], *, after: int | None = None) -> BatchReport:
        """Add a batch of events of a live game, in order, validated as a log file would be, stored whole or not
        at all (see :mod:`graphmem.ingest.live`). A ``phase`` event moves the game on: its memories are decayed to
        the new phase (so no :meth:`advance_phase` is needed after it).

        after : int or None, the number of events sent before this batch (``report.total_events`` of the previous
            one): a batch that does not follow them is refused, a batch sent again writes nothing. None appends.

        Returns a BatchReport (``dropped`` lists the eliminated players left out of perceiver lists).
        Raises NotFound for a game that is not stored; InvalidGameLog naming "event N of this batch", its id, the
        field and the reason (nothing written); GameConflict, nothing written, for a batch that does not follow
        the stored events, an ended game or a game stored from a file.
        """
        from graphmem.jobs.series import catch_up_game

        report = self.live.add(game, events, after=after)
        if report.phase > report.decayed_from:
            advance(self.driver, self.database, game, report.phase, self.params)
            catch_up_game(self.driver, self.database, game, self.params)
        return report

    def add_event(self, game: str, event: Mapping[str, Any], *, after: int | None = None) -> BatchReport:
        """One event of a live game (see :meth:`add_events`)."""
        return self.add_events(game, [event], after=after)

    def end_game(self, game: str, winner: str, *, text: str | None = None, after: int | None = None) -> BatchReport:
        """The ``end`` event of a live game (docs/log-format.md): the game is complete, and the player tokens minted
        during it stop working. Raises as :meth:`add_events`."""
        event: dict[str, Any] = {"kind": "end", "winner": winner}
        if text:
            event["text"] = text
        return self.add_events(game, [event], after=after)

    # -- time -----------------------------------------------------------------------------------------------------

    def advance_phase(self, game: str, to: int | None = None, *, day: int | None = None, name: str | None = None,
                      after: int | None = None, batch_size: int = 10_000) -> DecayReport:
        """Move time on: run the decay job (docs/model.md#forgetting), ``batch_size`` memories per write transaction.

        A live game (not ended) moves with its ``phase`` events: with ``day`` and ``name`` this adds the phase
        event (``after`` as in :meth:`add_events`) and decays to it; without them it decays to the game's current
        phase (a no-op when :meth:`add_events` did already) and refuses a ``to`` beyond it, so the stored phase
        and the decayed phase always agree. A game ingested from a file, or ended, decays to phase ``to``, or one
        phase on (time passing after the game).

        Raises NotFound for an unknown game; UsageProblem for an earlier phase, a ``to`` beyond a live game's
        phase, or only one of ``day`` and ``name``; GameConflict for a ``day`` and ``name`` (a phase event) to a game
        stored from a file or ended; as :meth:`add_events` for the phase event.
        """
        from graphmem.ingest.live import read_status

        status = read_status(self.driver, self.database, game)
        if status is not None and status.live and not status.complete:
            if day is not None or name is not None:
                if day is None or name is None:
                    raise UsageProblem("a phase event needs both day and name (e.g. day=2, name='night')")
                report = self.add_events(game, [{"kind": "phase", "day": day, "name": name}], after=after)
                return advance(self.driver, self.database, game, report.phase, self.params, batch_size=batch_size)
            if to is not None and to > status.last_phase:
                raise UsageProblem(f"game '{game}' is live and in phase {status.last_phase}: its phases come from its "
                                   "phase events, so it cannot decay to phase {to} yet; send the phase event "
                                   "(advance_phase(game, day=..., name=...) or add_events)".replace("{to}", str(to)),
                                   field="to")
            to = status.last_phase if to is None else to
        elif day is not None or name is not None:
            # a conflict with the stored game (409 over HTTP), as an event batch sent to it is
            from graphmem.store.games import require_game

            if status is None:
                require_game(self.driver, self.database, game)  # raises NotFound listing the stored games
            stored = ("is stored from a log file (`graphmem ingest`), not fed live" if status is None or not status.live
                      else "has ended (its end event is stored)")
            raise GameConflict(f"game '{game}' {stored}: it takes no phase event. Nothing was written; decay it with "
                               "to=N, or one phase on")
        decayed = advance(self.driver, self.database, game, to, self.params, batch_size=batch_size)
        from graphmem.jobs.series import catch_up_game

        catch_up_game(self.driver, self.database, game, self.params, batch_size=batch_size)
        return decayed

    # -- recall and working memory --------------------------------------------------------------------------------

    def recall(self, game: str, player: str, topic: str | None = None, *, participants: Sequence[str] = (),
               at: int | None = None, k: int | None = None, seed: int | None = None,
               dry_run: bool = False) -> RecallResult:
        """What ``player`` remembers for a dialogue about ``topic`` with ``participants``
        (docs/model.md#recall-and-reconsolidation), reconsolidated
        and written back unless ``dry_run`` (or ``at`` is an earlier phase). ``result.prompt()`` is the block.

        Concurrent recalls of one player (an agent calling tools in parallel, two engines) can touch the same
        memories: a recall whose memories another recall wrote between its read and its write writes nothing and is
        run again on the new state, up to ten times with a random (jittered) pause that doubles each time
        (:func:`graphmem.recall.retrying.until_written`), so every call succeeds and each memory's access count ``n``
        counts every writing recall that returned it.

        ``player`` and ``participants`` are compared in Unicode NFC, as the log's names are stored (a name typed
        decomposed is the same player), here and in every method that takes a player.

        Raises NotFound for an unknown game, player or participant; UsageProblem for ``at`` outside 0..the
        game's phase. These are checked before the embedding model is loaded. RecallConflict only when every
        attempt met a concurrent write.
        """
        from graphmem.recall import recall
        from graphmem.recall.retrying import until_written

        _check_text("topic", topic)
        for i, name in enumerate(participants):
            _check_text(f"participants[{i}]", name)
        player, participants = nfc(player), [nfc(name) for name in participants]

        def attempt() -> RecallResult:
            return recall(self.driver, self.database, game, player, topic=topic, participants=participants, at=at,
                          k=k, seed=self.settings.seed if seed is None else seed, params=self.params,
                          embedder=self.embedder, dry_run=dry_run, cache=self.recall_cache,
                          reader=self.memory_reader)

        def retried() -> None:
            self.recall_retries += 1

        return until_written(attempt, retried)

    def push_thought(self, game: str, player: str, content: str, *, priority: float = 0.5, persistence: int = 2,
                     trigger: str = "api") -> str:
        """Push a thought into ``player``'s working memory at the game's current phase (docs/model.md#working-memory);
        returns its uid.

        priority : float in [0, 1]; persistence : int >= 0, phases it stays. Beyond the player's capacity the
        lowest priority goes (oldest first). Raises NotFound for an unknown game or player, UsageProblem for a
        murdered or banished player, empty content, a priority outside [0, 1] or a negative persistence.
        """
        from graphmem.jobs.decay import refresh_working_memory
        from graphmem.model.working_memory import WorkingMemoryItem
        from graphmem.store.games import refuse_if_moving
        from graphmem.store.idempotency import fence
        from graphmem.store.keys import api_thought_uid_prefix
        from graphmem.store.queries import cypher

        player = nfc(player)
        if not content.strip():
            raise UsageProblem("a thought needs text: content is empty", field="text")
        _check_text("text", content)
        WorkingMemoryItem(content, priority, persistence, trigger, 0)  # validates priority and persistence

        def work(tx: neo4j.ManagedTransaction) -> list[neo4j.Record]:
            refuse_if_moving(tx, game)
            fence(tx)  # pushed with an Idempotency-Key: the key is marked committed with the thought
            return list(tx.run(cypher("ingest/push_thought"), game=game, player=player, content=content,
                               priority=priority, persistence=persistence, trigger=trigger,
                               uid_prefix=api_thought_uid_prefix(game, player)))

        with self.driver.session(database=self.database) as session:
            records = session.execute_write(work)
        if not records:
            self._missing(game, player)
        if records[0]["uid"] is None:
            raise UsageProblem(f"{player} was {records[0]['status']} in game '{game}': an eliminated player has no "
                               "working memory")
        refresh_working_memory(self.driver, self.database, game, int(records[0]["pushed_phase"]), self.params)
        return str(records[0]["uid"])

    def _require_player(self, game: str, player: str) -> None:
        """Return when ``game`` has ``player``; NotFound naming the game's players (or the stored games) else."""
        roster = self._read("recall/roster", game=game)
        if not roster:
            self.require_game(game)
        players = [str(name) for name in roster[0]["players"]] if roster else []
        if player not in players:
            raise NotFound(f"no player '{player}' in game '{game}' (players: {', '.join(players)})")

    def _missing(self, game: str, player: str) -> None:
        from graphmem.store.games import require_game

        require_game(self.driver, self.database, game)
        raise NotFound(f"no player '{player}' in game '{game}'")

    # -- retries --------------------------------------------------------------------------------------------------

    def once(self, caller: str, key: str, request_sha256: str, game: str,
             operation: Callable[[], Answer]) -> tuple[Answer, bool]:
        """Carry out a write at most once per ``key`` of ``caller`` (docs/service.md#retries: an engine that never
        heard an answer sends the same request again with the same Idempotency-Key): the first time ``operation()``
        runs and its answer is kept for a day; a retry gets that answer again and writes nothing
        (:func:`graphmem.store.idempotency.carry_out_once`). Returns (the answer, whether it is one given again).

        caller : "engine" or a player's uid (:func:`graphmem.store.keys.player_uid`); request_sha256 : the hash of
        the request (a retry must be the same request); game : the game it writes to.
        Raises IdempotencyKeyReused (422) for another request under the key, RetryConflict (409) when the first
        request is still under way after a minute or committed without answering, and what ``operation`` raises.
        """
        from graphmem.store.idempotency import carry_out_once
        from graphmem.store.keys import idempotency_uid

        return carry_out_once(self.driver, self.database, idempotency_uid(caller, key), game, request_sha256,
                              operation)

    # -- player tokens ------------------------------------------------------------------------------------------

    def mint_token(self, game: str, player: str) -> str:
        """A new player token for ``player`` of ``game``: it grants that player's agent operations (recall, push a
        thought, list the player's conflicts) and nothing else (:mod:`graphmem.store.tokens`). Minted while the game
        is live, it stops working when the game ends or is deleted. Only its hash is stored: keep the token.
        Raises NotFound for an unknown game or player."""
        from graphmem.store import tokens

        player = nfc(player)
        self.require_game(game)
        try:
            token, _ = tokens.mint(self.driver, self.database, game, player)
        except NotFound:
            self._missing(game, player)
            raise
        return token

    def revoke_tokens(self, game: str, player: str | None = None) -> int:
        """Revoke the working player tokens of ``game`` (of ``player`` only, when given); returns how many (0 when
        none worked). Raises NotFound for an unknown game, or a player the game does not have."""
        from graphmem.store import tokens

        player = None if player is None else nfc(player)
        if player is None:
            self.require_game(game)
        else:
            self._require_player(game, player)
        return tokens.revoke(self.driver, self.database, game, player)

    def check_token(self, token: str) -> PlayerGrant:
        """The game and player a player token grants. Raises Unauthorized for a token never minted, Forbidden for a
        revoked one or one of an ended (when minted during it) or deleted game."""
        from graphmem.store import tokens

        return tokens.verify(self.driver, self.database, token)

    def conflicts(self, game: str, player: str) -> list[dict[str, Any]]:
        """The open conflicts between ``player``'s own memories (docs/jobs.md#contradictions), the critical ones
        (identity, lie) first: [{conflict, kind, subject, predicate, detected_phase, said, memories, texts, days}];
        ``said`` is the conflict in the player's words ("Ben claimed to have voted for Eve on day 1, but you saw Ben
        vote for Dan.", the line the prompt block shows; None for a conflict stored without one), ``texts`` the memories
        as the player now remembers them. Raises NotFound for an unknown game or player."""
        player = nfc(player)
        self._require_player(game, player)
        rows = self._read("analysis/open_conflicts", game=game, owner=player, kind=None)
        return [{k: v for k, v in r.items() if k != "owner"} for r in rows]

    # -- jobs -----------------------------------------------------------------------------------------------------

    def consolidate(self, game: str, player: str | None = None, *, dry_run: bool = False,
                    progress: Callable[[str, int], None] | None = None) -> ConsolidationReport:
        """Consolidate clusters of similar memories into summaries (docs/jobs.md#consolidation), per player;
        progress(owner, n) after each owner."""
        from graphmem.jobs.consolidation import consolidate

        player = None if player is None else nfc(player)
        return consolidate(self.driver, self.database, game, self.params, player=player, dry_run=dry_run,
                           progress=progress)

    def consolidate_series(self, series: str, player: str | None = None, *, dry_run: bool = False,
                           min_games: int = 2,
                           progress: Callable[[str, int], None] | None = None) -> SeriesConsolidationReport:
        """Summarise what each player of the series' latest game remembers of each other player over their games
        together ("Charlie was on the evil side in 5 of your 8 games together; ..."), as Summary memories of the
        latest game (docs/jobs.md#consolidation-across-a-series); progress(owner, n) after each owner. Raises NotFound
        for an unknown series or a player the latest game does not have."""
        from graphmem.jobs.series_consolidation import consolidate_series

        player = None if player is None else nfc(player)
        self.require_series(series)
        return consolidate_series(self.driver, self.database, series, self.params, self.embedder.encode,
                                  player=player, dry_run=dry_run, min_games=min_games, progress=progress)

    def contradictions(self, game: str, player: str | None = None, *, dry_run: bool = False,
                       progress: Callable[[str, int], None] | None = None) -> ContradictionReport:
        """Detect and store conflicting memories (docs/jobs.md#contradictions); identity conflicts resolve once the
        truth is seen; progress(owner, n) after each owner."""
        from graphmem.jobs.contradictions import find_contradictions

        player = None if player is None else nfc(player)
        return find_contradictions(self.driver, self.database, game, self.params, player=player, dry_run=dry_run,
                                   progress=progress)

    def forget(self, game: str, player: str, memory: str, reason: str | None = None) -> ForgetResult:
        """Tombstone one memory of ``player`` on request (kept for audit, never recalled again)."""
        from graphmem.jobs.forget import forget

        player = nfc(player)
        return forget(self.driver, self.database, game, player, memory, self.params, reason)

    # -- analysis and pictures ------------------------------------------------------------------------------------

    def query(self, name: str, params: Mapping[str, str]) -> QueryResult:
        """Run the analysis query ``name`` (``cypher/analysis/NAME.cypher``) in a read transaction.

        params : {parameter: value as text}, typed by the query's header (its defaults fill the rest).
        Raises UnknownQuery or UsageProblem for a bad name or value, NotFound for an unknown ``game`` or ``series``.
        """
        from graphmem.analysis import analysis_query, bind_params, run_read

        chosen = analysis_query(name)
        bound = bind_params(chosen, params)
        if isinstance(bound.get("game"), str):
            self.require_game(bound["game"])
        if isinstance(bound.get("series"), str):
            self.require_series(bound["series"])
        return run_read(self.driver, self.database, chosen, bound)

    def told_graph(self, game: str, day: int | None = None) -> nx.MultiDiGraph:
        """Who told whom in ``game`` (on ``day`` only, when given) as a networkx multigraph (see
        :mod:`graphmem.viz.told`). Raises NotFound for an unknown game, UsageProblem for a day it does not have."""
        from graphmem.viz.told import check_day, fetch_told_graph

        self.require_game(game)
        if day is not None:
            check_day(self.driver, self.database, game, day)
        return fetch_told_graph(self.driver, self.database, game, day)

    def trust_graph(self, series: str) -> nx.MultiDiGraph:
        """Who trusts whom over the series of games ``series`` as a networkx multigraph: people as nodes, an edge
        observer -> observed with the ``series_reputation`` counts, accuracy and trust share (see
        :mod:`graphmem.viz.trust`). Raises NotFound for an unknown series."""
        from graphmem.viz.trust import fetch_trust_graph

        self.require_series(series)
        return fetch_trust_graph(self.driver, self.database, series)

    def decay_chart(self, game: str, player: str) -> DecayChart:
        """Each memory of ``player`` in ``game``: its strength over the phases (see :mod:`graphmem.viz.decay`)."""
        from graphmem.viz.decay import fetch_decay_chart

        player = nfc(player)
        return fetch_decay_chart(self.driver, self.database, game, player, self.params)
