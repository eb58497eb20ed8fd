"""Reading what a recall needs (``cypher/recall/context.cypher``, ``recall/memories``) and a candidate's strength.

:func:`read_context` runs the first read in one read transaction and turns the row into a :class:`Context`: the
owner, working memory, conflicts and every candidate's ranking inputs, read from an index (no embedding, no store);
:func:`read_memories` reads the few memories the ranking keeps in full. :func:`check_context` raises
NotFound/UsageProblem for an unknown game, player or participant, or a phase outside 0..``Game.decayed_to``
(the pipeline checks before it embeds the topic, so a typo never waits for the embedding model to load).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import neo4j
import numpy as np
import numpy.typing as npt

from graphmem.errors import NotFound, UsageProblem, unknown_game
from graphmem.model.forgetting import strength_at
from graphmem.model.params import Parameters
from graphmem.model.retrieval import can_retrieve, cue_floor
from graphmem.model.source import OWN_KINDS
from graphmem.recall.types import Candidate
from graphmem.recall.vectors import EmbeddingCache, HeldCandidates
from graphmem.store.games import stored_game_ids
from graphmem.store.keys import player_uid
from graphmem.store.queries import cypher

__all__ = ["Context", "check_context", "held_from_row", "held_key", "keep_written", "read_context", "read_memories",
           "strength_now"]


@dataclass(frozen=True)
class Context:
    """One row of ``recall/context``.

    decayed_to : int, Game.decayed_to; curve : str, Game.curve (or the default asked for); now : int, the recall
    phase; incarnation : str or None, the Game node's incarnation (keys the embedding cache); players : sorted
    names; found : whether the owner is one of them; profile, threshold, wm_capacity, emotion_json : the owner's
    Player properties; thoughts, conflicts : the query's maps; version : int, the owner's memory version the
    candidates were read at (:mod:`graphmem.store.versions`).
    The candidates (the owner's memories some cue could bring back at ``now``, see ``recall/context``), as arrays of
    shape (count,) in the same order: uids; ns (access counts); strengths (m at ``now``, float64 in [0, 1]); flashbulbs
    (bool); thresholds (each memory's RetrievalThreshold).
    shown : the rows of recalled memories the held candidates keep (:attr:`HeldCandidates.shown`, shared with them).
    """

    decayed_to: int
    curve: str
    now: int
    incarnation: str | None
    players: tuple[str, ...]
    found: bool
    profile: str | None
    threshold: float | None
    wm_capacity: int | None
    emotion_json: str
    thoughts: tuple[Mapping[str, Any], ...]
    conflicts: tuple[Mapping[str, Any], ...]
    version: int
    uids: tuple[str, ...]
    ns: tuple[int, ...]
    strengths: npt.NDArray[np.float64]
    flashbulbs: npt.NDArray[np.bool_]
    thresholds: npt.NDArray[np.float64]
    series: str | None = None
    shown: dict[str, Mapping[str, Any]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def count(self) -> int:
        """The number of candidates."""
        return len(self.uids)


def _session(driver: neo4j.Driver, database: str | None) -> neo4j.Session:
    # Conflict nodes and their properties may not exist yet in a database: the planner's "unknown property"
    # notifications are expected, so they are not asked for.
    return driver.session(database=database, default_access_mode=neo4j.READ_ACCESS,
                          notifications_min_severity="OFF")


def _no_game(driver: neo4j.Driver, database: str | None, game: str) -> NotFound:
    return unknown_game(game, stored_game_ids(driver, database))


def read_context(driver: neo4j.Driver, database: str | None, game: str, player: str, at: int | None,
                 params: Parameters, cache: EmbeddingCache) -> Context:
    """Run ``recall/context`` once, in a read transaction (see the query's header for what it reads); the
    candidates' uids come from the node ids ``cache`` has met, the others are read in the same transaction
    (:meth:`EmbeddingCache.uids`). A candidate whose node is gone by then (its game being deleted) is left out.
    The owner's candidates are not read again while ``cache`` holds them as the query would read them
    (:class:`graphmem.recall.vectors.HeldCandidates`), and only the memories the owner's change log names when it
    holds them at an older version the log covers (:mod:`graphmem.store.versions`).

    Raises NotFound (listing the stored games) when the game is not stored.
    """
    values: dict[str, Any] = {"game": game, "player": player, "player_uid": player_uid(game, player), "at": at,
                              "curve": params.curve,
                              "vague_floor": params.clarity.vague_floor, "cue_support": params.recall.cue_support,
                              "lowest_cue_floor": cue_floor(0.0, params)}
    key = held_key(database, game, player, at, params)
    held = cache.held_candidates(key)
    values["known"] = None if held is None else held.known

    def work(tx: neo4j.ManagedTransaction) -> tuple[dict[str, Any], list[str | None] | None] | None:
        record = tx.run(cypher("recall/context"), values).single()
        if record is None:
            return None
        # dict(record), not record.data(): data() walks every value of the lists to convert graph types, ~100 ms
        # for an owner of 10,000 candidates; this row holds none
        row = dict(record)
        if row["fresh"]:
            return row, None
        return row, cache.uids(tx, database, game, row["incarnation"], row["ids"])

    with _session(driver, database) as session:
        read = session.execute_read(work)
    if read is None:
        raise _no_game(driver, database, game)
    row, uids = read
    if uids is None:
        assert held is not None  # the query found the candidates fresh only against what was held
        cache.candidates_reused += 1
    elif row["changed"] is not None:
        assert held is not None  # the query patches only what was held
        held = held.patched(int(row["version"]), row["changed"], held_from_row(row, uids))
        cache.recued(database, game, row["incarnation"], row["recued"] or [])
        cache.candidates_patched += 1
        cache.keep_candidates(key, held)
    else:
        held = held_from_row(row, uids)
        if held.incarnation:
            cache.keep_candidates(key, held)
    return Context(
        decayed_to=int(row["decayed_to"] or 0), curve=str(row["curve"]), now=int(row["now"]),
        incarnation=row["incarnation"], players=tuple(row["players"]), found=bool(row["found"]),
        profile=row["profile"], threshold=None if row["threshold"] is None else float(row["threshold"]),
        wm_capacity=None if row["wm_capacity"] is None else int(row["wm_capacity"]),
        emotion_json=str(row["emotion_json"] or "{}"), thoughts=tuple(row["thoughts"]),
        conflicts=tuple(c for c in row["conflicts"] if c is not None), version=held.version,
        uids=held.uids, ns=held.ns, strengths=held.strengths, flashbulbs=held.flashbulbs,
        thresholds=held.thresholds, series=row["series"], shown=held.shown)


def held_key(database: str | None, game: str, player: str, at: int | None, params: Parameters) -> tuple[object, ...]:
    """What the candidates a process holds are kept under: everything of a read that decides them but the store."""
    return (database, game, player, at, params.curve, params.clarity.vague_floor, params.recall.cue_support)


def keep_written(cache: EmbeddingCache, database: str | None, game: str, player: str, params: Parameters,
                 read_at: int, versions: tuple[int | None, int | None],
                 changes: Mapping[str, tuple[int, float]],
                 shown: Mapping[str, Mapping[str, Any]] | None = None) -> bool:
    """After a writing recall at the game's current phase: bring the candidates ``cache`` holds for ``player`` of
    ``game`` up to date with what the recall wrote, so that the owner's next recall need not read them again (the
    recall's owner, and in a series each earlier self whose memories it wrote: docs/model.md#series-of-games).

    read_at : the player's memory version the recall read the candidates at (``Context.version``, or
    ``HeldCandidates.version`` of an earlier self); versions : the player's memory version after the write's two
    raises (:func:`graphmem.store.versions.write_raising_versions`; None: not known); changes : {uid: (access count,
    strength at the game's phase now)} of each memory written; shown : {uid: its row as
    ``recall/memories`` reads it after the write} (:func:`graphmem.recall.reconsolidate.shown_after_write`; None:
    none shown, read at the next recall).
    Only when the two raises took the version from the one held to exactly two above it (no other write in
    between, in any process) are the held candidates plus ``changes`` the owner's candidates now; otherwise, or when
    a written memory is no longer a candidate, nothing changes and the next recall reads them. Returns whether they
    were brought up to date.
    """
    first, second = versions
    key = held_key(database, game, player, None, params)
    held = cache.held_candidates(key, wait=False)  # called by that work: it must not wait for itself
    if (first is None or second is None or held is None or held.version != read_at
            or first != held.version + 1 or second != first + 1):
        return False
    rows = {uid: i for i, uid in enumerate(held.uids) if uid in changes}
    # still a candidate: some cue (relevance 1) could bring it back, the filter of recall/context
    if len(rows) != len(changes) or not all(
            can_retrieve(changes[uid][1], bool(held.flashbulbs[i]), float(held.thresholds[i]), 1.0, params)
            for uid, i in rows.items()):
        return False
    cache.keep_candidates(key, held.written(second, {rows[uid]: change for uid, change in changes.items()}, shown))
    return True


def held_from_row(row: Mapping[str, Any], uids: Sequence[str | None]) -> HeldCandidates:
    """The candidates of a ``recall/context`` row that read them, their uids given (None: a node gone since, left
    out)."""
    kept = None if None not in uids else np.array([u is not None for u in uids], dtype=bool)

    def column(name: str, dtype: type) -> npt.NDArray[Any]:
        values: npt.NDArray[Any] = np.array(row[name], dtype=dtype)
        return values if kept is None else values[kept]

    return HeldCandidates(
        incarnation=str(row["incarnation"] or ""), version=int(row["version"]), now=int(row["now"]),
        decayed_to=int(row["decayed_to"] or 0), ids=column("ids", np.int64),
        uids=tuple(cast(list[str], uids)) if kept is None else tuple(u for u in uids if u is not None),
        ns=tuple(column("ns", np.int64).tolist()), strengths=column("strengths", np.float64),
        flashbulbs=column("flashbulbs", bool), thresholds=column("thresholds", np.float64))


def read_memories(driver: neo4j.Driver, database: str | None, player: str,
                  recalled: Sequence[tuple[str, int, dict[str, Mapping[str, Any]]]],
                  cache: EmbeddingCache | None = None) -> list[Mapping[str, Any]]:
    """The full properties of the recalled memories (``recall/memories``), in their order, with ``own`` (derived from
    the event's actor for a memory stored before the property existed).

    recalled : (uid, the access count it was ranked at, the rows its held candidates show,
    :attr:`HeldCandidates.shown`) of each memory. A row shown at that access count is taken as it is; the others are
    read in one read transaction and put among the rows shown (an owner's recalls in a row then read none: a second
    transaction, 4-6 ms, bench/README.md). A memory gone since it was ranked has no row.
    cache : counts the memories read (:attr:`EmbeddingCache.memories_read`).
    """
    missing = {uid for uid, n, shown in recalled if uid not in shown or shown[uid].get("n") != n}
    read: dict[str, Mapping[str, Any]] = {}
    if missing:
        def work(tx: neo4j.ManagedTransaction) -> list[Mapping[str, Any]]:
            return [r["memory"] for r in tx.run(cypher("recall/memories"), uids=sorted(missing), player=player,
                                                own_kinds=list(OWN_KINDS))]

        with _session(driver, database) as session:
            read = {str(row["uid"]): row for row in session.execute_read(work)}
        for uid, _, shown in recalled:
            if uid in read:
                shown[uid] = read[uid]
        if cache is not None:
            cache.memories_read += len(read)
    rows = {uid: shown[uid] for uid, _, shown in recalled if uid not in missing}
    rows.update(read)
    return [rows[uid] for uid, _, _ in recalled if uid in rows]


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
                           f"{decayed_to}, not {at} (a later phase has not happened yet: `graphmem phase advance` "
                           "moves a live game on and decays its memories, so do not use it to look ahead)",
                           field="at")


def check_context(context: Context, game: str, player: str, participants: Sequence[str], at: int | None) -> None:
    """Raise NotFound for an unknown player or participant (listing the game's players) and UsageProblem for
    ``at`` outside 0..decayed_to."""
    _check(game, player, participants, at, context.decayed_to, context.players)


def strength_now(candidate: Candidate, now: int, curve: str) -> float:
    """m at phase ``now`` in closed form (docs/model.md#forgetting): max(floor, e_ref * R(now - t_ref, s)).

    For a phase before the memory's last rehearsal (t_ref > now, a look into the past with ``at``), the state
    at ``now`` is no longer stored; the encoding values stand in: max(floor, e0 * R(now - t_enc, s_enc)). Exact
    for a memory never recalled before ``now``; one recalled between encoding and ``now`` and again after it
    shows as if never recalled.
    """
    c = candidate
    if c.t_ref > now:
        return strength_at(c.e0, c.t_enc, c.s_enc, now, curve, c.floor)
    return strength_at(c.e_ref, c.t_ref, c.s, now, curve, c.floor)
