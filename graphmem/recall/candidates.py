"""Reading what a recall needs, in one query (``cypher/recall/context.cypher``), and the strength of a candidate.

:func:`read_context` runs the read in one read transaction and turns the row into a :class:`Context`;
:func:`check_context` raises NotFound/UsageProblem for an unknown game, player or participant, or a phase outside
0..``Game.decayed_to``; :func:`check_request` does the same with a small query before any embedding is computed
(the CLI calls it so that a typo does not wait for the embedding model to load).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import neo4j

from graphmem.errors import NotFound, UsageProblem, unknown_game
from graphmem.model.forgetting import strength_at
from graphmem.model.params import Parameters
from graphmem.model.source import OWN_KINDS
from graphmem.recall.types import Candidate
from graphmem.store.games import stored_game_ids
from graphmem.store.queries import cypher

__all__ = ["Context", "check_context", "check_request", "flashbulbs_may_be_archived", "read_context",
           "skips_archived", "strength_now"]


@dataclass(frozen=True)
class Context:
    """One row of ``recall/context``.

    decayed_to : int, Game.decayed_to; curve : str, Game.curve (or the default asked for); now : int, the recall
    phase; players : sorted names; found : whether the owner is one of them; profile, threshold, wm_capacity,
    emotion_json : the owner's Player properties; thoughts, conflicts : the query's maps; candidates : the
    pre-selected candidates' maps (with raw ``dense`` and ``lexical``); count : every candidate (the owner's
    memories that are not archived at ``now``, see ``recall/context``); dense_min,
    dense_max : the range of the raw dense scores over every candidate (None without any); lexical_best : the best
    full-text score over every candidate (0 when none matched).
    """

    decayed_to: int
    curve: str
    now: int
    players: tuple[str, ...]
    found: bool
    profile: str | None
    threshold: float | None
    wm_capacity: int | None
    emotion_json: str
    thoughts: tuple[Mapping[str, Any], ...]
    conflicts: tuple[Mapping[str, Any], ...]
    candidates: tuple[Mapping[str, Any], ...]
    count: int
    dense_min: float | None
    dense_max: float | None
    lexical_best: float


def _session(driver: neo4j.Driver, database: str | None) -> neo4j.Session:
    # Conflict nodes and their properties may not exist yet in a database: the planner's "unknown property"
    # notifications are expected, so they are not asked for.
    return driver.session(database=database, default_access_mode=neo4j.READ_ACCESS,
                          notifications_min_severity="OFF")


def _no_game(driver: neo4j.Driver, database: str | None, game: str) -> NotFound:
    return unknown_game(game, stored_game_ids(driver, database))


def flashbulbs_may_be_archived(params: Parameters) -> bool:
    """Whether the decay job can archive a flashbulb: only when the flashbulb floor is below the active band
    (every profile's RetrievalThreshold is below that band, a rule of the configuration, so a floored strength
    at or above it is never archived). Not with the shipped parameters (floor 0.8, active 0.40)."""
    return params.flashbulb.floor < params.lifecycle.active


def skips_archived(now: int, decayed_to: int, params: Parameters) -> bool:
    """Whether the recall queries may leave archived memories unread (through the index Memory(game, owner,
    state)): at ``now`` = ``decayed_to`` the stored lifecycle states are those at ``now``, and a memory archived
    then cannot be recalled (SPEC 10) unless it is a flashbulb (:func:`flashbulbs_may_be_archived`)."""
    return now == decayed_to and not flashbulbs_may_be_archived(params)


PRESELECTION_SLACK = 1e-6
"""Margin of the query's pre-selection, on strengths and scores. The query's strengths are the decay job's stored
ones (held equal to the Python closed form to 1e-9 by the decay tests) or its own closed form (~1e-15), so every
memory of the exact top k is recallable within this margin and scores within it of the query's k-th best; the
integration test ``test_the_query_pre_selection_never_changes_the_top_k`` checks the result against ranking all."""


def read_context(driver: neo4j.Driver, database: str | None, game: str, player: str, at: int | None,
                 vector: Sequence[float] | None, lucene: str | None, participants: Sequence[str], k: int,
                 params: Parameters, ann_k: int = 0) -> Context:
    """Run ``recall/context`` once, in a read transaction (see the query's header for what it pre-selects).

    Raises NotFound (listing the stored games) when the game is not stored.
    """
    r = params.recall
    weights = {"relevance": r.relevance_weight, "strength": r.strength_weight, "dense": r.dense_weight,
               "lexical": r.lexical_weight, "boost": r.participant_boost, "vague_floor": params.clarity.vague_floor,
               "slack": PRESELECTION_SLACK, "similar_cos": params.similarity.detail_import}
    values = {"game": game, "player": player, "at": at, "vector": None if vector is None else list(vector),
              "lucene": lucene, "ann_k": ann_k, "participants": list(participants), "k": k, "curve": params.curve,
              "threshold": params.profile(params.default_profile).retrieval_threshold, "w": weights,
              "archived_flashbulbs": flashbulbs_may_be_archived(params), "own_kinds": list(OWN_KINDS)}

    def work(tx: neo4j.ManagedTransaction) -> dict[str, Any] | None:
        record = tx.run(cypher("recall/context"), values).single()
        return None if record is None else record.data()

    with _session(driver, database) as session:
        row = session.execute_read(work)
    if row is None:
        raise _no_game(driver, database, game)
    return Context(
        decayed_to=int(row["decayed_to"] or 0), curve=str(row["curve"]), now=int(row["now"]),
        players=tuple(row["players"]), found=bool(row["found"]), profile=row["profile"],
        threshold=None if row["threshold"] is None else float(row["threshold"]),
        wm_capacity=None if row["wm_capacity"] is None else int(row["wm_capacity"]),
        emotion_json=str(row["emotion_json"] or "{}"), thoughts=tuple(row["thoughts"]),
        conflicts=tuple(c for c in row["conflicts"] if c is not None), candidates=tuple(row["candidates"]),
        count=int(row["count"] or 0),
        dense_min=None if row["dense_min"] is None else float(row["dense_min"]),
        dense_max=None if row["dense_max"] is None else float(row["dense_max"]),
        lexical_best=float(row["lexical_best"] or 0.0))


def _check(game: str, player: str, participants: Sequence[str], at: int | None, decayed_to: int,
           players: Sequence[str]) -> None:
    listing = ", ".join(players) if players else "none"
    if player not in players:
        raise NotFound(f"no player '{player}' in game '{game}' (players: {listing})")
    unknown = [p for p in participants if p not in players]
    if unknown:
        raise NotFound(f"unknown participant{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
                       f"in game '{game}' (players: {listing})")
    if at is not None and not 0 <= at <= decayed_to:
        raise UsageProblem(f"game '{game}' has been decayed to phase {decayed_to}; recall at a phase from 0 to "
                           f"{decayed_to}, not {at} (move the game on with `graphmem phase advance`)")


def check_context(context: Context, game: str, player: str, participants: Sequence[str], at: int | None) -> None:
    """Raise NotFound for an unknown player or participant (listing the game's players) and UsageProblem for
    ``at`` outside 0..decayed_to."""
    _check(game, player, participants, at, context.decayed_to, context.players)


def check_request(driver: neo4j.Driver, database: str | None, game: str, player: str,
                  participants: Sequence[str] = (), at: int | None = None) -> int:
    """Check a request with one small query; returns the game's decayed_to.

    Raises NotFound (unknown game, listing the stored games; unknown player or participant, listing the players)
    or UsageProblem (``at`` outside 0..decayed_to).
    """
    records, _, _ = driver.execute_query(cypher("recall/roster"), game=game, database_=database,
                                         routing_=neo4j.RoutingControl.READ)
    if not records:
        raise _no_game(driver, database, game)
    decayed_to = int(records[0]["decayed_to"] or 0)
    _check(game, player, participants, at, decayed_to, list(records[0]["players"]))
    return decayed_to


def strength_now(candidate: Candidate, now: int, curve: str) -> float:
    """m at phase ``now`` in closed form (SPEC 4): max(floor, e_ref * R(now - t_ref, s)).

    For a phase before the memory's last rehearsal (t_ref > now, a look into the past with ``at``), the state
    at ``now`` is no longer stored; the encoding values stand in: max(floor, e0 * R(now - t_enc, s_enc)). Exact
    for a memory never recalled before ``now``; one recalled between encoding and ``now`` and again after it
    shows as if never recalled.
    """
    c = candidate
    if c.t_ref > now:
        return strength_at(c.e0, c.t_enc, c.s_enc, now, curve, c.floor)
    return strength_at(c.e_ref, c.t_ref, c.s, now, curve, c.floor)
