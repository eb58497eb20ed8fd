"""The decay job: bring a game's memories and working memory to a phase (docs/model.md#forgetting,
docs/model.md#source-memory, docs/model.md#working-memory, docs/model.md#lifecycle-states).

``graphmem phase advance`` and the end of every ingest call :func:`advance`. For every live memory of the game
(state active, warm or archived) encoded by the target phase, one batched Cypher update
(``cypher/jobs/decay_memories.cypher``, batches committed in concurrent transactions) recomputes, in closed form
from the stored state:

- ``strength`` = max(floor, e_ref * R(to - t_ref, s)) with the game's curve (``Game.curve``);
- ``source_confidence`` = c0 * R(to - t_enc, s_enc)^source_k, on its own clock (never reset by retrieval);
- ``source_belief`` = "unknown" below ``parameters.source.unknown_below``, else the provenance ``source_type``;
  flashbulbs, the owner's own statements and actions (``own``) and memories attributed to another teller at their
  last recall (``misattributed``) keep their ``source_type``;
- ``state`` = active (>= ``parameters.lifecycle.active``), warm (>= the memory's ``threshold``) or archived;
- ``decayed_to`` = the target phase.

The same formulas live in :mod:`graphmem.model` (``forgetting.strength_at``, ``source.source_confidence``,
``source.source_belief`` with ``source.keeps_source``, ``clarity.lifecycle_state``); an integration test holds Cypher
and Python equal to 1e-9.
Working memory (Thought nodes) is computed per player in Python with
:func:`graphmem.model.working_memory.active_items` (thoughts are few; pushes of one phase are ordered by the
Thought's ``seq``, 0 when absent) and written back with one UNWIND.
Finally ``Game.decayed_to`` records the phase. Because everything is a function of the stored state and the
phase, advancing to the same phase again changes nothing, and a run killed half-way is completed by re-running.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

import neo4j
from neo4j import RoutingControl
from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from graphmem.errors import Neo4jUnavailable, UsageProblem, unknown_game
from graphmem.model.forgetting import CURVES
from graphmem.model.params import Parameters
from graphmem.model.source import OWN_KINDS
from graphmem.model.vocabulary import LIVE_STATES
from graphmem.model.working_memory import WorkingMemoryItem, active_items
from graphmem.store.games import refuse_if_moving, stored_game_ids
from graphmem.store.queries import cypher

__all__ = ["DecayReport", "advance"]

log = logging.getLogger(__name__)

PHASES_PAST_END = 1000
"""How far past a game's last phase the decay job goes: far beyond any memory's half-life (every memory but the
flashbulbs is archived long before), near enough to refuse a typo, which could not be undone (decay only moves
forward)."""

#: Attempts of the batched memory update on a retryable (transient) error.
RETRIES = 3


@dataclass(frozen=True)
class DecayReport:
    """What one :func:`advance` did.

    game : str, the game id
    from_phase : int, ``Game.decayed_to`` before the run
    to_phase : int, the phase the game now describes
    curve : str, the forgetting curve used ("exponential" or "power")
    memories : int, live memories updated (those encoded by ``to_phase``)
    states : mapping state -> int, how many of them are now active, warm and archived
    thoughts : int, Thought nodes of the game
    thoughts_active : int, thoughts held in working memory at ``to_phase``
    seconds : float, wall-clock time of the run
    """

    game: str
    from_phase: int
    to_phase: int
    curve: str
    memories: int
    states: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    thoughts: int = 0
    thoughts_active: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["states"] = dict(self.states)
        return data


@dataclass(frozen=True)
class _DecayProgress:
    """How far a stored game's decay has gone (``decayed_to``, a phase), on which curve, and its last phase; not
    the game's facts, which are :class:`graphmem.logs.state.GameState`."""

    decayed_to: int
    curve: str
    last_phase: int


def _decay_progress(driver: neo4j.Driver, database: str | None, game: str, params: Parameters) -> _DecayProgress:
    records, _, _ = driver.execute_query(cypher("jobs/decay_game"), game=game, database_=database,
                                         routing_=RoutingControl.READ)
    if not records:
        raise unknown_game(game, stored_game_ids(driver, database))
    row = records[0]
    curve = row["curve"] if row["curve"] is not None else params.curve
    if curve not in CURVES:
        raise UsageProblem(f"game {game!r} has unknown forgetting curve {curve!r} (known: {', '.join(CURVES)})")
    decayed_to = row["decayed_to"]
    return _DecayProgress(int(decayed_to) if decayed_to is not None else 0, str(curve), int(row["last_phase"] or 0))


def _decay_memories(driver: neo4j.Driver, database: str | None, game: str, to: int, curve: str,
                    params: Parameters, batch_size: int) -> dict[str, int]:
    """Run the batched memory update; returns {state: count} over the updated memories."""
    values = {"game": game, "to": to, "curve": curve, "active": params.lifecycle.active,
              "unknown_below": params.source.unknown_below, "own_kinds": list(OWN_KINDS)}
    # CALL { } IN CONCURRENT TRANSACTIONS commits its own batches, so it runs in an auto-commit transaction, which
    # the driver does not retry. The update is closed-form, so a retryable failure is retried from the start here.
    def update() -> dict[str, int]:
        counts = dict.fromkeys(LIVE_STATES, 0)
        try:
            with driver.session(database=database) as session:
                for record in session.run(cypher("jobs/decay_memories"), values, batch=batch_size):
                    counts[str(record["state"])] = int(record["memories"])
        except (ServiceUnavailable, SessionExpired) as e:
            raise Neo4jUnavailable(f"Neo4j went away while decaying game {game!r} to phase {to} "
                                   f"(re-run: decay is closed-form): {e}") from e
        return counts

    def retrying(state: RetryCallState) -> None:
        error = state.outcome.exception() if state.outcome else None
        log.warning("decay of game %s failed (%s); retrying (%d of %d)", game, getattr(error, "code", error),
                    state.attempt_number, RETRIES - 1)

    return Retrying(retry=retry_if_exception(lambda e: isinstance(e, Neo4jError) and e.is_retryable()),
                    stop=stop_after_attempt(RETRIES), before_sleep=retrying, reraise=True)(update)


def _thought_item(row: Mapping[str, Any]) -> WorkingMemoryItem:
    return WorkingMemoryItem(
        content=str(row["content"] or ""), priority=float(row["priority"]), persistence=int(row["persistence"]),
        trigger=str(row["trigger"] or ""), pushed_phase=int(row["pushed_phase"]), seq=int(row["seq"] or 0))


def refresh_working_memory(driver: neo4j.Driver, database: str | None, game: str, to: int,
                    params: Parameters) -> tuple[int, int]:
    """Recompute which thoughts of the game are held in working memory at phase ``to`` (docs/model.md#working-memory:
    capacity per player, lowest priority evicted first, oldest first on ties) and their ``persistence_left``; returns
    (thoughts, active)."""
    records, _, _ = driver.execute_query(cypher("jobs/decay_thoughts"), game=game, database_=database,
                                         routing_=RoutingControl.READ)
    if not records:
        return 0, 0
    default_capacity = params.profile(params.default_profile).working_memory_capacity
    by_player: dict[str, list[tuple[str, WorkingMemoryItem]]] = {}
    capacity: dict[str, int] = {}
    for r in records:
        player = str(r["player"])
        by_player.setdefault(player, []).append((str(r["uid"]), _thought_item(r)))
        if r["capacity"] is None and player not in capacity:
            log.warning("game %s: player %s has no wm_capacity; using the default profile's %d",
                        game, player, default_capacity)
        capacity[player] = int(r["capacity"]) if r["capacity"] is not None else default_capacity
    rows: list[dict[str, Any]] = []
    for player, entries in sorted(by_player.items()):
        # active_items returns the very item objects it was given, so identity maps them back to their uids
        held = {id(item) for item in active_items([item for _, item in entries], to, capacity[player])}
        for uid, item in entries:
            if id(item) in held:
                left = item.persistence_left(to)
            elif item.pushed_phase > to:
                left = item.persistence  # not pushed yet at this phase
            else:
                left = 0  # expired or displaced
            rows.append({"uid": uid, "active": id(item) in held, "persistence_left": left})
    driver.execute_query(cypher("jobs/decay_thoughts_set"), rows=rows, database_=database)
    return len(rows), sum(1 for r in rows if r["active"])


def advance(driver: neo4j.Driver, database: str | None, game: str, to_phase: int | None, params: Parameters, *,
            batch_size: int = 10_000, past_end: int | None = PHASES_PAST_END) -> DecayReport:
    """Decay a game's memories and working memory to ``to_phase`` and record it as ``Game.decayed_to``.

    driver : the caller's driver; database : the database name or None for the server's default
    game : str, the game id
    to_phase : int >= ``Game.decayed_to``, the phase to decay to; None advances by one phase
    params : the model parameters (lifecycle band, source ``unknown_below``, default curve and profile)
    batch_size : int >= 1, memories per write transaction
    past_end : int or None, how far past its last phase the game may go (None: no bound, for the series job, which
        takes an earlier game of a series as far as the later ones have gone: :mod:`graphmem.jobs.series`)

    Memories in state active, warm or archived with ``t_enc <= to_phase`` get ``strength``,
    ``source_confidence``, ``source_belief``, ``state`` and ``decayed_to`` (docs/model.md#forgetting,
    docs/model.md#source-memory, docs/model.md#lifecycle-states); thoughts get
    ``active`` and ``persistence_left`` (docs/model.md#working-memory). The game's ``curve`` is used (``params.curve``
    when unset).
    Idempotent: advancing to the phase the game is at changes nothing.

    Returns a :class:`DecayReport`.
    Raises NotFound (listing the stored game ids) for an unknown game; UsageProblem for ``to_phase`` below the
    game's current phase (naming it) or more than ``past_end`` past its last phase, a ``batch_size`` < 1,
    or a stored curve that is not known.
    """
    started = time.perf_counter()
    if batch_size < 1:
        raise UsageProblem(f"batch_size must be >= 1, got {batch_size!r}")
    with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as session:
        session.execute_read(refuse_if_moving, game)  # a game being moved takes no decay (graphmem.store.moves)
    state = _decay_progress(driver, database, game, params)
    to = state.decayed_to + 1 if to_phase is None else int(to_phase)
    if past_end is not None and to > max(state.last_phase, state.decayed_to) + past_end:
        raise UsageProblem(f"game {game!r} ends at phase {state.last_phase}; phase {to} is more than "
                           f"{past_end} phases past its end (decay cannot be undone: ask for phase "
                           f"{state.last_phase + past_end} or earlier)")
    if to < state.decayed_to:
        raise UsageProblem(f"game {game!r} is at phase {state.decayed_to}; cannot decay backwards to phase {to} "
                           f"(decay only moves forward: ask for phase {state.decayed_to} or later)")
    log.info("decaying game %s from phase %d to %d (%s curve)", game, state.decayed_to, to, state.curve)
    counts = _decay_memories(driver, database, game, to, state.curve, params, batch_size)
    thoughts, thoughts_active = refresh_working_memory(driver, database, game, to, params)
    with driver.session(database=database) as session:
        session.execute_write(_set_decayed_to, game, to)
    report = DecayReport(game=game, from_phase=state.decayed_to, to_phase=to, curve=state.curve,
                         memories=sum(counts.values()), states=MappingProxyType(counts), thoughts=thoughts,
                         thoughts_active=thoughts_active, seconds=time.perf_counter() - started)
    log.info("game %s decayed to phase %d: %d memories (%s), %d of %d thoughts active, %.2f s", game, to,
             report.memories, ", ".join(f"{n} {s}" for s, n in counts.items()), thoughts_active, thoughts,
             report.seconds)
    return report


def _set_decayed_to(tx: neo4j.ManagedTransaction, game: str, to: int) -> None:
    """Record ``Game.decayed_to``, the decay's last step; refused (GameMoving) when the game began moving during the
    decay: the copy then holds an interrupted decay, which the next one to the same phase completes (each memory's
    strength is a closed form of its stored state, docs/model.md#forgetting)."""
    refuse_if_moving(tx, game)
    tx.run(cypher("jobs/decay_game_set"), game=game, to=to).consume()
