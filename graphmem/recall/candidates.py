"""Reading what a recall needs before ranking (``cypher/recall/context.cypher``, through the store's reader) and a
candidate's strength.

:func:`read_context` reads, through the process's :class:`graphmem.store.reader.MemoryReader`, in one read
transaction, the owner, working memory, conflicts and every candidate's ranking inputs, read from an index (no
embedding, no store), as a :class:`Context`. :func:`check_context` raises NotFound/UsageProblem for an unknown game,
player or participant, or a phase outside 0..``Game.decayed_to`` (the pipeline checks before it embeds the topic, so
a typo never waits for the embedding model to load).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import neo4j

from graphmem.errors import NotFound, UsageProblem, unknown_game
from graphmem.model.forgetting import strength_at
from graphmem.model.params import Parameters
from graphmem.model.retrieval import cue_floor
from graphmem.model.source import OWN_KINDS
from graphmem.recall.types import Candidate
from graphmem.recall.vectors import EmbeddingCache
from graphmem.store.games import stored_game_ids
from graphmem.store.keys import player_uid
from graphmem.store.reader import HeldCandidates, MemoryReader

__all__ = ["Context", "check_context", "held_key", "read_context", "strength_now"]


@dataclass(frozen=True)
class Context:
    """One row of ``recall/context``.

    decayed_to : int, Game.decayed_to; curve : str, Game.curve (or the default asked for); now : int, the recall
    phase; incarnation : str or None, the Game node's incarnation (keys the embedding cache); players : sorted
    names; found : whether the owner is one of them; profile, threshold, wm_capacity, emotion_json : the owner's
    Player properties; thoughts, conflicts : the query's maps; series : the game's series, None for none.
    held : the candidates (the owner's memories some cue could bring back at ``now``, see ``recall/context``) as the
    reader holds them (:class:`graphmem.store.reader.HeldCandidates`: their parallel arrays, the owner's memory
    version they were read at and the rows of recalled memories they show).
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
    held: HeldCandidates
    series: str | None = None

    @property
    def count(self) -> int:
        """The number of candidates."""
        return len(self.held.uids)


def read_context(driver: neo4j.Driver, database: str | None, game: str, player: str, at: int | None,
                 params: Parameters, reader: MemoryReader, cache: EmbeddingCache) -> Context:
    """Read what a recall needs before ranking through ``reader``
    (:meth:`graphmem.store.reader.MemoryReader.read_candidates`: ``recall/context`` once, in a read transaction; see
    the query's header for what it reads): the owner's candidates are not read again while the reader holds them as
    the query would read them, and only the memories the owner's change log names when it holds them at an older
    version the log covers (:mod:`graphmem.store.versions`); the memories read again bring the vectors ``cache``
    holds of them up to date (:meth:`EmbeddingCache.recued`). A candidate whose node is gone by then (its game being
    deleted) is left out.

    Raises NotFound (listing the stored games) when the game is not stored.
    """
    values: dict[str, Any] = {"game": game, "player": player, "player_uid": player_uid(game, player), "at": at,
                              "curve": params.curve,
                              "vague_floor": params.clarity.vague_floor, "cue_support": params.recall.cue_support,
                              "lowest_cue_floor": cue_floor(0.0, params), "own_kinds": list(OWN_KINDS)}
    read = reader.read_candidates(driver, database, held_key(database, game, player, at, params), game, values)
    if read is None:
        raise unknown_game(game, stored_game_ids(driver, database))
    row, held = read.row, read.held
    if read.recued:
        cache.recued(database, game, row["incarnation"], read.recued)
    return Context(
        decayed_to=int(row["decayed_to"] or 0), curve=str(row["curve"]), now=int(row["now"]),
        incarnation=row["incarnation"], players=tuple(row["players"]), found=bool(row["found"]),
        profile=row["profile"], threshold=None if row["threshold"] is None else float(row["threshold"]),
        wm_capacity=None if row["wm_capacity"] is None else int(row["wm_capacity"]),
        emotion_json=str(row["emotion_json"] or "{}"), thoughts=tuple(row["thoughts"]),
        conflicts=tuple(c for c in row["conflicts"] if c is not None), held=held, series=row["series"])


def held_key(database: str | None, game: str, player: str, at: int | None, params: Parameters) -> tuple[object, ...]:
    """What the candidates a process holds are kept under: everything of a read that decides them but the store."""
    return (database, game, player, at, params.curve, params.clarity.vague_floor, params.recall.cue_support)


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
