"""A game being played: a game engine sends its events in batches while the game runs.

Any process can take any batch of any game: a process keeps no game state that Neo4j does not hold (docs/service.md,
"the server holds no game state between requests"). What a batch needs — the validator's state (who is alive,
roles, ids, phases), the encoder's state (emotions, votes of the round, statements for rumour chains) and the
embeddings of the speakers' earlier memories — is rebuilt from what the game stores:

- the Game node keeps the canonical header (``header_json``), the number of accepted events and the log hash of
  header and events (``log_events``, ``log_sha256``: the hash a log file of the same header and events would have,
  :class:`graphmem.logs.writer.LogDigest`);
- every accepted batch is stored as a ``LogBatch`` node holding the canonical line of each event
  (:func:`graphmem.logs.writer.event_line`), in the same transaction as its memories.

A process rebuilds a game by replaying those lines through the validator and the encoder (no embedding, nothing
written), then reads from Neo4j the embeddings of the memories it needs. :class:`LiveGames` caches the rebuilt
state of recently used games, keyed by (events, hash): a cached state is used only while the stored count and hash
are still the ones it reached, so a batch written by another process since is never missed (the cache is then
rebuilt). Replaying is deterministic (every uid derives from the game, the owner and the event id; encoding is a
pure function of the events), which is what lets several processes give the same answers as one.

A batch is written in ONE transaction: lock the Game node, claim the batch (the stored count and hash must be the
ones the state had before it, ``ingest/live_claim``), write its rows and its LogBatch. So a batch is stored whole
or not at all (also when Neo4j stops mid-request), and two processes or two engines never interleave inside a game.
A batch is validated whole before that: any invalid event refuses the whole batch (every problem is reported as
"event N of this batch", 0-based, with the event id), nothing is written.

An engine that wants to be sure no other engine and no lost batch came between its batches passes ``after``, the
number of events it sent before the batch (an optimistic-concurrency token, like HTTP's If-Match): a batch that
does not follow the stored events is refused with GameConflict, except a batch sent again whose events are stored
already (a retry after a lost answer), which writes nothing and succeeds.

Eliminated perceivers: engines' visibility lists go on naming murdered and banished players. Those names are
dropped from ``witnesses`` and ``emotion`` (as the importers do) and reported in :attr:`BatchReport.dropped`; an
eliminated player who acts (speaks, votes, ...) is still refused.

Roles: a player may be created without a role (:data:`UNASSIGNED_ROLE`) and get it with ``set_roles``, before or
after the first events; meanwhile an event is refused only when it needs a role not set yet (:func:`roles_needed`:
e.g. a ``traitors``-channel event while a living player's role, and so whether they hear it, is unknown), naming
the players.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any

import neo4j
import numpy as np
from tenacity import RetryCallState, Retrying, retry_if_exception_type, retry_never, stop_after_delay, wait_random

from graphmem.embedding import Embedder, Vectors
from graphmem.errors import GameConflict, InvalidGameLog, LogProblem, NotFound
from graphmem.ingest.encode import EncodedGame, GameEncoder, check_profiles
from graphmem.ingest.perception import MISSION_RESULTS
from graphmem.ingest.rumours import link_rumours
from graphmem.logs import GameLogValidator
from graphmem.logs.reader import LoggedEvent, parse_json_line, validate_header
from graphmem.logs.schema import EndEvent, GameHeader, nfc
from graphmem.logs.writer import LogDigest, dumps_line, event_line, to_json_object
from graphmem.model import Parameters
from graphmem.store.idempotency import fence
from graphmem.store.keys import log_batch_uid
from graphmem.store.queries import cypher, in_sequence
from graphmem.store.versions import write_raising_versions
from graphmem.store.writer import WriteCounts, write_rows_in

log = logging.getLogger(__name__)

UNASSIGNED_ROLE = "unassigned"
"""The role of a player created without one (``start_game`` with a player that has no ``role``): set it with
``set_roles`` before the first event."""

CACHE_GAMES = 64
"""Rebuilt game states a process keeps (least recently used first out)."""

CLAIM_SECONDS = 60.0
"""How long a batch without ``after`` goes on being validated again on the newer stored state while other batches
(of other processes) are stored first; each lost claim is another batch stored, so it ends when they do. A batch
with ``after`` is refused at once instead. (Three attempts were too few: with two server processes, 26 of 180
concurrent batches in five runs lost three claims in a row, because the loser had to read and replay the winner's
batch and embed again, while the winner's process had its next batch ready on a warm cache; 180 of 180 now.)"""
CLAIM_PAUSE = 0.05
"""The longest random pause, in seconds, before a lost batch is validated again (full jitter: uniform in [0, it])."""


@dataclass(frozen=True)
class Dropped:
    """A name left out of a live event: an eliminated player in its ``witnesses`` or ``emotion``.

    index : int, 0-based position of the event in its batch; event_id : str, its id as stored (the default id, its
    position in the log, when it gave none)
    field : str, e.g. "witnesses[3]" or "emotion.Dmitri"; player : str; reason : str ("Dmitri was murdered ...")
    """

    index: int
    event_id: str | None
    field: str
    player: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        """{"index", "id", "field", "player", "reason"}."""
        return {"index": self.index, "id": self.event_id, "field": self.field, "player": self.player,
                "reason": self.reason}


@dataclass(frozen=True)
class BatchReport:
    """What one batch of live events did.

    events : int, events of the batch newly stored; memories : int, memories encoded from them
    nodes_created, relationships_created : int, what Neo4j created
    phase : int, the game's phase after the batch (the phase the caller decays the game to)
    total_events : int, events the game holds after the batch (the ``after`` of the engine's next batch)
    already_stored : int, events of the batch found stored already (a batch sent again); nothing written for them
    dropped : the eliminated players left out of perceiver lists (see the module docstring)
    ended : bool, the game has ended (an ``end`` event is stored)
    decayed_from : int, ``Game.decayed_to`` before the batch (the caller decays when ``phase`` is beyond it)
    ids : the ids of the batch's events as stored, in order (those found stored already included): an event sent
        without ``id`` gets its position in the whole log, counting the header as 1 (the game's first event is
        "2"), the line it would have in a log file (docs/log-format.md)
    """

    events: int
    memories: int
    nodes_created: int
    relationships_created: int
    phase: int
    total_events: int = 0
    already_stored: int = 0
    dropped: tuple[Dropped, ...] = ()
    ended: bool = False
    decayed_from: int = 0
    ids: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON object (the HTTP API's answer to a batch)."""
        return {"events": self.events, "ids": list(self.ids), "memories": self.memories, "nodes_created": self.nodes_created,
                "relationships_created": self.relationships_created, "phase": self.phase,
                "total_events": self.total_events, "already_stored": self.already_stored,
                "dropped": [d.to_json() for d in self.dropped], "ended": self.ended}


def file_game_refusal(game: str) -> str:
    """Why a game stored from a log file cannot be fed live (the message of the GameConflict both checks raise)."""
    return (f"game '{game}' is stored from a log file (`graphmem ingest`), not fed live: live events would mix with "
            "it. Nothing was written; start the live game under another id")


def _in_header(problem: LogProblem) -> LogProblem:
    """A problem of a live game's header, placed as "the header" (a live game has no file and no line 1)."""
    return replace(problem, place="the header") if problem.line == 1 and problem.index is None else problem


def game_place(line: int) -> str:
    """How a live game's messages name an earlier event (it has no file): "event 7 of the game" (0-based)."""
    return f"event {line - 2} of the game"


@dataclass
class LiveStatus:
    """The stored facts of a live game that a batch is checked against (``ingest/live_status``)."""

    live: bool
    complete: bool
    log_events: int
    log_sha256: str | None
    header_json: str | None
    decayed_to: int
    last_phase: int


def read_status(driver: neo4j.Driver, database: str | None, game: str) -> LiveStatus | None:
    """The stored status of ``game``, or None when it is not stored."""
    records, _, _ = driver.execute_query(cypher("ingest/live_status"), game=game, database_=database,
                                         routing_=neo4j.RoutingControl.READ)
    return LiveStatus(**records[0].data()) if records else None


@dataclass
class Prepared:
    """A batch validated whole on a fork of the validator (nothing changed yet)."""

    validator: GameLogValidator
    accepted: list[LoggedEvent]
    dropped: list[Dropped]


class LiveGame:
    """The state of one live game after its first :attr:`events` events (see the module docstring).

    header : GameHeader or a header object (validated; raises InvalidGameLog naming the field)
    params : the model parameters; embedder : the Embedder that embeds memory texts
    """

    def __init__(self, header: GameHeader | Mapping[str, Any], params: Parameters, embedder: Embedder) -> None:
        name = dict(header).get("game", "?") if isinstance(header, Mapping) else header.game
        try:
            self.validator = GameLogValidator(header, source=f"game {name}", place=game_place)
            problems = check_profiles(self.validator.game_log(), params)
        except InvalidGameLog as e:  # a live game has no file: its header is no "line 1"
            raise InvalidGameLog(e.path, [_in_header(p) for p in e.problems]) from None
        if problems:
            raise InvalidGameLog(self.validator.source, [_in_header(p) for p in problems])
        self.header = self.validator.header
        self.params = params
        self.embedder = embedder
        self.encoder = GameEncoder(self.header, params, imported_from="live")
        self.vectors: dict[str, Vectors] = {}
        self.loaded_owners: set[str] = set()
        self.digest = LogDigest(self.header)
        self.lines: list[str] = []

    @property
    def game(self) -> str:
        """The game id."""
        return self.header.game

    @property
    def events(self) -> int:
        """Events accepted so far."""
        return self.digest.events

    @property
    def sha256(self) -> str:
        """The log hash of the header and the events so far."""
        return self.digest.hexdigest()

    @property
    def phase(self) -> int:
        """The index of the game's current phase (of the last accepted event)."""
        return self.validator.current_phase.index

    @property
    def ended(self) -> bool:
        """Whether an ``end`` event was accepted."""
        return self.validator.state.ended is not None

    def header_json(self) -> str:
        """The canonical header as compact JSON (stored on the Game node)."""
        return dumps_line(to_json_object(self.header))

    @classmethod
    def replay(cls, header_json: str, lines: Sequence[str], params: Parameters, embedder: Embedder) -> LiveGame:
        """The state after the stored events ``lines`` (canonical lines, in order): validated and encoded again,
        nothing embedded or written. Raises GameConflict when the stored events do not replay (a store written by
        hand, or by a graphmem with other validation rules)."""
        header, problems = validate_header(json.loads(header_json))
        if header is None:
            raise GameConflict(f"the stored header of this game no longer validates: {problems[0]}")
        live = cls(header, params, embedder)
        live.catch_up(lines)
        return live

    def catch_up(self, lines: Sequence[str]) -> None:
        """Take stored events that follow this state's (canonical lines, in order), as :meth:`replay` does."""
        for line in lines:
            number = self.digest.events
            obj, problems = parse_json_line(line, number + 2)
            try:
                if problems:
                    raise InvalidGameLog(self.validator.source, problems)
                logged = self.validator.feed(obj)
            except InvalidGameLog as e:
                raise GameConflict(f"game '{self.game}': stored event {number} no longer replays ({e.problems[0]}); "
                                   "delete the game and start it again") from e
            self.encoder.event(logged, number)
            self.digest.add(logged)
            self.lines.append(line)
        self.encoder.take(self.validator.phases)  # everything replayed is stored already

    def prepare(self, events: Sequence[Mapping[str, Any]]) -> Prepared:
        """Validate ``events`` whole, in order, on a fork of the validator (this state is not changed).

        Eliminated players are dropped from perceiver lists first (reported in ``Prepared.dropped``). Raises
        InvalidGameLog with every problem of the batch, each placed as "event N of this batch" with its id.
        """
        fork = self.validator.fork()
        unassigned = {p.name for p in self.header.players if p.role == UNASSIGNED_ROLE}
        accepted: list[LoggedEvent] = []
        dropped: list[Dropped] = []
        problems: list[LogProblem] = []
        for index, obj in enumerate(events):
            line = fork.next_line
            if isinstance(obj, Mapping):
                obj, gone = drop_eliminated(obj, fork, index)
                dropped.extend(gone)
                missing = roles_needed(obj, fork, unassigned)
                if missing:
                    problems.append(LogProblem(line, "kind", missing, index, _given_id(obj) or str(line)))
                    continue
            logged, found = fork.offer(obj, line)
            if logged is not None:
                accepted.append(logged)
            event_id = _given_id(obj) or str(line)
            problems.extend(LogProblem(p.line, p.field, p.reason, index, event_id) for p in found)
        if problems:
            raise InvalidGameLog(fork.source, problems)
        return Prepared(fork, accepted, dropped)

    def apply(self, prepared: Prepared) -> EncodedGame:
        """Take a prepared batch into this state and return its rows (not yet embedded or written)."""
        self.validator = prepared.validator
        for logged in prepared.accepted:
            self.encoder.event(logged, self.digest.events)
            self.digest.add(logged)
            self.lines.append(event_line(logged))
        return self.encoder.take(self.validator.phases)

    def embed(self, driver: neo4j.Driver, database: str | None, rows: EncodedGame) -> list[Any]:
        """Embed the new memories, read the stored embeddings of the new statements' speakers' earlier memories
        (once per owner and state), and link the rumour chains; returns the DERIVED_FROM rows."""
        texts = [m.embedded for m in rows.memories]
        vectors = self.embedder.encode(texts) if texts else np.zeros((0, 0), dtype=np.float32)
        new = set()
        for memory, vector in zip(rows.memories, vectors):
            self.vectors[memory.uid] = vector
            new.add(memory.uid)
        speakers = {s.speaker for s in rows.statements} - self.loaded_owners
        if speakers:
            records, _, _ = driver.execute_query(cypher("ingest/live_vectors"), game=self.game,
                                                 owners=sorted(speakers), database_=database,
                                                 routing_=neo4j.RoutingControl.READ)
            for r in records:
                if r["uid"] not in new and r["embedding"] is not None:
                    self.vectors[r["uid"]] = np.asarray(r["embedding"], dtype=np.float32)
            self.loaded_owners |= speakers
        everything = self.encoder.result(self.validator.phases)
        everything.statements = rows.statements  # link only the new statements, against every earlier memory
        return link_rumours(everything, self.vectors, self.params.similarity.rumour_chain)


def _given_id(obj: Any) -> str | None:
    value = obj.get("id") if isinstance(obj, Mapping) else None
    return value if isinstance(value, str) else None


_ROLE_SIDE_EVENTS = {"murder": "a murder", "recruit": "a recruit", "end": "the end"}


def roles_needed(obj: Mapping[str, Any], validator: GameLogValidator, unassigned: set[str]) -> str | None:
    """Why ``obj`` cannot be taken while the players ``unassigned`` have no role, or None when it needs none of
    their roles. Who is on the traitor side decides who hears the ``traitors`` channel and the murder votes, who
    may murder and recruit, how a murder and a quest's outcome feel to each witness, and the end; a ``reveal`` or a
    banish with ``role_revealed`` states the player's role. Other events need no role."""
    if not unassigned:
        return None
    kind = obj.get("kind")
    living = [p for p in validator.state.living() if p in unassigned]
    what: str | None = None
    needed: list[str] = []
    if kind == "say" and obj.get("channel") == "traitors":
        what, needed = "an event on the traitors channel", living
    elif kind == "vote" and obj.get("ballot") == "murder":
        what, needed = "a murder vote", living
    elif kind == "outcome" and obj.get("result") in MISSION_RESULTS:
        what, needed = "a quest's outcome", living
    elif isinstance(kind, str) and kind in _ROLE_SIDE_EVENTS:
        what, needed = _ROLE_SIDE_EVENTS[kind], living
    elif kind == "reveal" or kind == "banish" and obj.get("role_revealed") is not None:
        player = obj.get("player")
        what, needed = f"a {kind} of a role", [nfc(player)] if isinstance(player, str) and nfc(player) in unassigned \
            else []
    if not needed:
        return None
    return (f"{what} needs the role of {', '.join(sorted(needed))}, not set yet: set it first (set_roles, or PUT "
            "/games/{game}/roles); events that need no missing role are taken meanwhile")


def drop_eliminated(obj: Mapping[str, Any], validator: GameLogValidator,
                    index: int) -> tuple[dict[str, Any], list[Dropped]]:
    """``obj`` without the murdered or banished players named in its ``witnesses``, ``observers`` (an ``observe``
    event keeps at least one: one seen by eliminated players only is refused, naming them) or ``emotion`` (not for
    an ``end`` event, which everyone may witness), and what was dropped."""
    out = dict(obj)
    if out.get("kind") == "end":
        return out, []
    state = validator.state
    dropped: list[Dropped] = []
    event_id = _given_id(obj) or str(validator.next_line)  # the id it is stored with

    def gone(name: Any) -> str | None:
        if not isinstance(name, str):
            return None
        elimination = state.eliminated.get(nfc(name))
        return None if elimination is None else elimination.describe(nfc(name), state.place)

    for key in ("witnesses", "observers") if out.get("kind") == "observe" else ("witnesses",):
        names = out.get(key)
        if not isinstance(names, list):
            continue
        kept = []
        for i, name in enumerate(names):
            why = gone(name)
            if why is None:
                kept.append(name)
            else:
                dropped.append(Dropped(index, event_id, f"{key}[{i}]", nfc(name),
                                       f"{why}: an eliminated player perceives nothing"))
        if key == "observers" and names and not kept:
            return dict(obj), []  # nobody left to observe it: the validator names the eliminated observers
        out[key] = kept
    emotion = out.get("emotion")
    if isinstance(emotion, dict):
        kept_emotion = {}
        for name, state_of in emotion.items():
            why = gone(name)
            if why is None:
                kept_emotion[name] = state_of
            else:
                dropped.append(Dropped(index, event_id, f"emotion.{name}", nfc(name),
                                       f"{why}: an eliminated player perceives nothing"))
        out["emotion"] = kept_emotion
    return out, dropped


@dataclass
class _Slot:
    lock: threading.Lock = field(default_factory=threading.Lock)
    state: LiveGame | None = None


class LiveGames:
    """The live games of one process: each batch checked against the stored game and written in one transaction
    (see the module docstring). Thread-safe: batches of one game are taken one at a time in a process, batches of
    different games in parallel; processes are kept apart by the stored claim.

    driver, database : the caller's; params : the model parameters; embedder : embeds memory texts
    """

    def __init__(self, driver: neo4j.Driver, database: str | None, params: Parameters, embedder: Embedder,
                 *, cache_games: int = CACHE_GAMES) -> None:
        self.driver = driver
        self.database = database
        self.params = params
        self.embedder = embedder
        self.cache_games = cache_games
        self._slots: OrderedDict[str, _Slot] = OrderedDict()
        self._guard = threading.Lock()
        self.rebuilds = 0
        """How many times this process rebuilt a game from Neo4j (no usable cached state)."""
        self.catch_ups = 0
        """How many times a cached state took the batches another process had added (a cheap cache miss)."""
        self.lost_claims = 0
        """How many times a batch without ``after`` lost its claim to another batch and was validated again."""

    @contextmanager
    def _slot(self, game: str) -> Iterator[_Slot]:
        with self._guard:
            slot = self._slots.get(game)
            if slot is None:
                slot = self._slots[game] = _Slot()
            self._slots.move_to_end(game)
            while len(self._slots) > self.cache_games:
                oldest = next(iter(self._slots))
                if oldest == game:
                    break
                del self._slots[oldest]
        with slot.lock:
            yield slot

    def forget(self, game: str) -> None:
        """Drop the cached state of ``game`` (after it was deleted)."""
        with self._guard:
            self._slots.pop(game, None)

    # -- opening --------------------------------------------------------------------------------------------------

    def open(self, header: Mapping[str, Any]) -> tuple[LiveGame, bool, LiveStatus | None]:
        """Create the live game of ``header`` (its Game node, players and phase 0), or find it stored.

        Returns (the state with no event, created, the stored status when it existed). A player without ``role``
        gets :data:`UNASSIGNED_ROLE`. Raises InvalidGameLog for an invalid header; GameConflict when the game is
        stored from a log file, or stored live with another header.
        """
        given = dict(header)
        if isinstance(given.get("players"), list):
            given["players"] = [{**p, "role": UNASSIGNED_ROLE} if isinstance(p, dict) and "role" not in p else p
                                for p in given["players"]]
        fresh = LiveGame(given, self.params, self.embedder)
        game = fresh.game
        status = read_status(self.driver, self.database, game)
        if status is not None:
            self._check_header(fresh, status)
            return fresh, False, status
        rows = fresh.encoder.take(fresh.validator.phases)
        nonce = secrets.token_hex(8)

        def work(tx: neo4j.ManagedTransaction) -> dict[str, Any]:
            fence(tx)  # created with an Idempotency-Key: the key is marked committed with the game
            now = datetime.now(timezone.utc).isoformat(timespec="seconds")
            opened = tx.run(cypher("ingest/live_open"), row=rows.game.row(), header_json=fresh.header_json(),
                            header_sha256=fresh.sha256, nonce=nonce, now=now).single(strict=True).data()
            if opened["created"]:
                write_rows_in(tx, rows, {}, [], log_sha256=fresh.sha256, log_events=0, live=True)
            return opened

        with self.driver.session(database=self.database) as session:
            opened = session.execute_write(work)
        if not opened["created"]:  # another process created it meanwhile
            status = read_status(self.driver, self.database, game)
            assert status is not None
            self._check_header(fresh, status)
            return fresh, False, status
        return fresh, True, None

    def _check_header(self, fresh: LiveGame, status: LiveStatus) -> None:
        game = fresh.game
        if not status.live:
            raise GameConflict(file_game_refusal(game))
        if status.header_json is None:
            raise GameConflict(f"game '{game}' was stored live by an earlier graphmem that kept no event log, so no "
                               "process can continue it: nothing was written; delete it and start it again")
        stored = LiveGame(json.loads(status.header_json), self.params, self.embedder)
        if stored.sha256 != fresh.sha256:
            raise GameConflict(f"game '{game}' is stored with another header (players, roles or traitor_roles "
                               "differ): nothing was written; use another game id, or delete the stored game")

    # -- batches --------------------------------------------------------------------------------------------------

    def add(self, game: str, events: Sequence[Mapping[str, Any]], *, after: int | None = None) -> BatchReport:
        """Validate ``events`` whole and store them in one transaction (see the module docstring).

        after : int or None, the number of events the caller sent before this batch (None: append to whatever is
            stored)

        Raises NotFound for a game that is not stored; GameConflict, nothing written, for a game stored from a file,
        an ended game (unless the batch holds reflections alone: they may follow the end), or a batch that does not
        follow the stored events (``after``); InvalidGameLog, nothing written, for any invalid event.
        """
        with self._slot(game) as slot:

            def attempt() -> BatchReport:
                status = read_status(self.driver, self.database, game)
                if status is None:
                    from graphmem.store.games import require_game

                    require_game(self.driver, self.database, game)  # raises NotFound listing the stored games
                    raise NotFound(f"no game '{game}' is stored")
                if not status.live:
                    raise GameConflict(file_game_refusal(game))
                state = self._state(slot, game, status)
                batch, already = self._after(state, status, events, after)
                if status.complete and any(e.get("kind") != "reflect" for e in batch):
                    raise GameConflict(f"game '{game}' has ended (its end event is stored): nothing was written; "
                                       "no event but a reflection may follow the end")
                if not batch:
                    return BatchReport(0, 0, 0, 0, state.phase, state.events, len(already), (), state.ended,
                                       status.decayed_to, tuple(already))
                try:
                    report = self._write(slot, state, batch, status)
                except _Moved:
                    raise _Moved(after if after is not None else state.events) from None
                return replace(report, already_stored=len(already), decayed_from=status.decayed_to,
                               ids=(*already, *report.ids))

            def lost(_: RetryCallState) -> None:
                self.lost_claims += 1

            # another batch was stored first: one with after is refused; one without is validated again on the new
            # stored state, as long as batches of others keep winning (each loss is one of them)
            try:
                return Retrying(retry=retry_if_exception_type(_Moved) if after is None else retry_never,
                                stop=stop_after_delay(CLAIM_SECONDS), wait=wait_random(0.0, CLAIM_PAUSE),
                                before_sleep=lost, reraise=True)(attempt)
            except _Moved as moved:
                raise GameConflict(self._moved(game, moved.expected)) from None

    def _moved(self, game: str, expected: int) -> str:
        status = read_status(self.driver, self.database, game)
        held = status.log_events if status else 0
        return (f"game '{game}' holds {held} events in Neo4j, but this batch was sent after {expected} events: "
                "another engine or process added events to it. Nothing of this batch was written; send it again with "
                f"after={held} if it still applies")

    def _state(self, slot: _Slot, game: str, status: LiveStatus) -> LiveGame:
        state = slot.state
        if state is not None and state.events == status.log_events and state.sha256 == status.log_sha256:
            return state
        if status.header_json is None:
            raise GameConflict(f"game '{game}' was stored live by an earlier graphmem that kept no event log, so no "
                               "process can continue it: nothing was written; delete it and start it again")
        if state is not None and state.events < status.log_events:
            # Another process added batches: replay only those onto the cached state. Equal SHA-256 hashes of the
            # whole event sequence after it mean the cached events were the stored ones too.
            try:
                state.catch_up(self._lines(game, state.events, status.log_events))
                if (state.events, state.sha256) == (status.log_events, status.log_sha256):
                    self.catch_ups += 1
                    return state
            except GameConflict:
                pass
        state = LiveGame.replay(status.header_json, self._lines(game, 0, status.log_events), self.params,
                                self.embedder)
        if (state.events, state.sha256) != (status.log_events, status.log_sha256):
            raise GameConflict(f"game '{game}': its stored event log ({state.events} events) does not match its "
                               f"event count and hash ({status.log_events} events); delete it and start it again")
        self.rebuilds += 1
        slot.state = state
        return state

    def _lines(self, game: str, start: int, end: int) -> list[str]:
        """The stored event lines of ``game`` from event ``start`` to ``end`` (exclusive; both begin stored batches):
        ``end`` is the event count of the status the caller read, so a batch another process commits meanwhile is
        left for the next status (read with it, it made the rebuilt state disagree with the status: a 409 for a batch
        that had done nothing wrong)."""
        records, _, _ = self.driver.execute_query(cypher("ingest/live_log_read"), game=game, start=start,
                                                  database_=self.database, routing_=neo4j.RoutingControl.READ)
        lines: list[str] = []
        for r in records:
            if int(r["start"]) >= end:
                break
            if int(r["start"]) != start + len(lines):
                raise GameConflict(f"game '{game}': its stored event log has a gap before event {r['start']}")
            lines.extend(r["lines"])
        return lines

    def _after(self, state: LiveGame, status: LiveStatus, events: Sequence[Mapping[str, Any]],
               after: int | None) -> tuple[Sequence[Mapping[str, Any]], list[str]]:
        """The events of the batch still to store, and the ids of those stored already (a batch sent again)."""
        held = state.events
        if after is None or after == held:
            return events, []
        if after < 0:
            raise GameConflict(f"after must be >= 0, got {after}")
        if after > held:
            raise GameConflict(f"game '{state.game}' holds {held} events, and this batch was sent after {after} "
                               f"events: events {held}..{after - 1} were never stored (counted from 0). Nothing was "
                               f"written; send them first (or this batch with after={held})")
        overlap = min(len(events), held - after)
        past = LiveGame.replay(status.header_json or state.header_json(), state.lines[:after], self.params,
                               self.embedder)
        try:
            prepared = past.prepare(events[:overlap])
        except InvalidGameLog as e:
            raise GameConflict(self._differs(state.game, held, after, str(e.problems[0]))) from None
        lines = [event_line(logged) for logged in prepared.accepted]
        for i, (sent, stored) in enumerate(zip(lines, state.lines[after:after + overlap])):
            if sent != stored:
                raise GameConflict(self._differs(state.game, held, after, f"event {i} of this batch differs from "
                                                 f"event {after + i} of the game"))
        return events[overlap:], [logged.event.id or str(logged.line) for logged in prepared.accepted]

    @staticmethod
    def _differs(game: str, held: int, after: int, why: str) -> str:
        return (f"game '{game}' holds {held} events, and this batch (after={after}) overlaps them with other events "
                f"({why}): another engine or process added events to it. Nothing was written")

    def _write(self, slot: _Slot, state: LiveGame, events: Sequence[Mapping[str, Any]],
               status: LiveStatus) -> BatchReport:
        prepared = state.prepare(events)  # raises InvalidGameLog, nothing changed
        before = (state.events, state.sha256)
        start = state.events
        try:
            rows = state.apply(prepared)
            derived = state.embed(self.driver, self.database, rows)
            embeddings = {m.uid: state.vectors[m.uid].tolist() for m in rows.memories}
            after = (state.events, state.sha256)
            lines = state.lines[start:]
            ended = any(isinstance(e.event, EndEvent) for e in prepared.accepted)

            def work(tx: neo4j.ManagedTransaction) -> WriteCounts | None:
                now = datetime.now(timezone.utc).isoformat(timespec="seconds")
                # the lock, then the claim, as one statement (one round trip and one statement less per batch)
                claim = tx.run(in_sequence("ingest/live_lock", "ingest/live_claim"), game=state.game, now=now,
                               before_events=before[0], before_sha256=before[1], after_events=after[0],
                               after_sha256=after[1]).single(strict=True)
                if not claim["claimed"]:
                    return None
                counts = write_rows_in(tx, rows, embeddings, derived, log_sha256=after[1], log_events=after[0],
                                       live=True, game_row=rows.game_changed)
                tx.run(cypher("ingest/live_log_write"), uid=log_batch_uid(state.game, start), game=state.game,
                       start=start, lines=lines).consume()
                if ended:
                    tx.run(cypher("ingest/mark_complete"), game=state.game).consume()
                return counts

            with self.driver.session(database=self.database) as session:
                # the batch creates these memories and changes no other: a process holding an owner's candidates
                # reads only these again (graphmem.store.versions, the change log)
                created: dict[str, list[str]] = {}
                for m in rows.memories:
                    created.setdefault(m.owner, []).append(m.uid)
                counts = write_raising_versions(session, state.game, created, work, changed=created)[0]
        except BaseException:
            slot.state = None  # the state went ahead of the store: rebuild it next time
            raise
        if counts is None:
            slot.state = None
            raise _Moved()
        return BatchReport(len(prepared.accepted), len(rows.memories), counts.nodes_created,
                           counts.relationships_created, state.phase, state.events, 0, tuple(prepared.dropped),
                           state.ended, status.decayed_to,
                           tuple(logged.event.id or str(logged.line) for logged in prepared.accepted))

    # -- roles ----------------------------------------------------------------------------------------------------

    def set_roles(self, game: str, roles: Mapping[str, str]) -> GameHeader:
        """Give players their roles (engines announce roles as the game starts, or as each player's becomes known).

        roles : {player name: role}. Before the first event any role may be set; once events are stored, only the
        roles not set yet (an event that needs one is refused until then, :func:`roles_needed`): the stored events
        are validated again under the new roles and the game's log hash recomputed. Returns the new header.
        Raises NotFound for an unknown game or player; GameConflict for a role already set once events are stored
        (roles then change only through ``recruit`` events), a game stored from a file, or stored events that the
        new roles refuse; InvalidGameLog when the new header is invalid (e.g. traitor_roles no longer held).
        """
        with self._slot(game) as slot:
            status = read_status(self.driver, self.database, game)
            if status is None:
                from graphmem.store.games import require_game

                require_game(self.driver, self.database, game)
                raise NotFound(f"no game '{game}' is stored")
            if not status.live or status.header_json is None:
                raise GameConflict(file_game_refusal(game))
            header = json.loads(status.header_json)
            names = [p["name"] for p in header["players"]]
            stored = {p["name"]: p["role"] for p in header["players"]}
            for name in roles:
                if nfc(name) not in names:
                    raise NotFound(f"no player '{name}' in game '{game}' (players: {', '.join(names)})")
            wanted = {nfc(k): v for k, v in roles.items()}
            if status.log_events:
                fixed = sorted(n for n, role in wanted.items() if stored[n] not in (UNASSIGNED_ROLE, role))
                if fixed:
                    raise GameConflict(f"game '{game}' holds {status.log_events} events, and the role of "
                                       f"{', '.join(fixed)} is set already: once events are stored, only roles not "
                                       "set yet are set (later, a recruit or reveal event changes what players know)")
            header["players"] = [{**p, "role": wanted.get(p["name"], p["role"])} for p in header["players"]]
            fresh = LiveGame(header, self.params, self.embedder)
            header_sha256 = fresh.sha256
            rows = fresh.encoder.take(fresh.validator.phases)
            if status.log_events:
                try:
                    fresh.catch_up(self._lines(game, 0, status.log_events))
                except GameConflict as e:
                    raise GameConflict(f"game '{game}': its stored events do not hold under these roles ({e}): "
                                       "nothing was written") from None

            def work(tx: neo4j.ManagedTransaction) -> bool:
                now = datetime.now(timezone.utc).isoformat(timespec="seconds")
                tx.run(cypher("ingest/live_lock"), game=game, now=now).consume()
                changed = tx.run(cypher("ingest/live_header"), game=game, header_json=fresh.header_json(),
                                 header_sha256=header_sha256, log_sha256=fresh.sha256,
                                 before_events=status.log_events, before_sha256=status.log_sha256
                                 ).single(strict=True)
                if not changed["changed"]:
                    return False
                tx.run(cypher("ingest/write_players"), rows=[p.row() for p in rows.players], game=game).consume()
                return True

            with self.driver.session(database=self.database) as session:
                if not session.execute_write(work):
                    raise GameConflict(f"game '{game}' changed while its roles were being set (an event or other "
                                       "roles arrived): nothing was written")
            slot.state = None
            return fresh.header


class _Moved(Exception):
    """The stored game moved on between the read and the claim (another process's batch came first); ``expected``
    is the number of events the batch was sent after."""

    def __init__(self, expected: int = 0) -> None:
        super().__init__(expected)
        self.expected = expected
