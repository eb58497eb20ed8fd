"""Recall across a series of games (docs/model.md#series-of-games): the memories the owner's person formed as other
players in the earlier games of the series join the owner's own as candidates.

:func:`read_earlier` reads, in one read transaction, which players the owner was in the earlier games
(``series/earlier_selves``) and then their candidates in one query (``recall/earlier_context``), chosen as the
owner's own in ``recall/context``, at each game's own phase now (its ``decayed_to``, which
:mod:`graphmem.jobs.series` keeps at the series' present). Candidates are held between recalls per earlier self
exactly as the owner's own, by the process's reader (:class:`graphmem.store.reader.MemoryReader`, under the key a
recall in that game would use), so a later game's recalls do not read the earlier games' candidates again until one
of them changes; a writing recall that rehearses memories of an earlier game logs them with that self's version, and
the next recall reads only those again (``recall/earlier_context`` follows the change log as ``recall/context``
does), as for the owner's own game.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import neo4j

from graphmem.model.params import Parameters
from graphmem.model.retrieval import cue_floor
from graphmem.model.source import OWN_KINDS
from graphmem.recall.candidates import held_key
from graphmem.recall.vectors import EmbeddingCache
from graphmem.store.keys import player_uid
from graphmem.store.queries import cypher
from graphmem.store.reader import HeldCandidates, MemoryReader
from graphmem.store.series import EarlierSelf, earlier_selves

__all__ = ["EarlierCandidates", "met_earlier_selves", "read_earlier", "read_earlier_beside"]

_SELVES: weakref.WeakKeyDictionary[MemoryReader, dict[tuple[str | None, str, str], list[EarlierSelf]]] = (
    weakref.WeakKeyDictionary())
"""The earlier selves each reader's recalls have met, by (database, game, player): a person's earlier games change only
when a game joins or leaves the series, which ``recall/earlier_context`` reports."""


READER_THREADS = 32
"""Threads that read earlier games beside the owners' own reads (:func:`read_earlier_beside`), for the whole process:
as many as the recalls a server runs at once (its request threads), so that none waits for another's earlier read
(the executor starts a thread only when one is needed; the driver's pool holds 100 connections)."""
_READERS = ThreadPoolExecutor(READER_THREADS, thread_name_prefix="graphmem-earlier")


class _SeriesMoved(Exception):
    """The earlier selves held are no longer the stored ones: read them again."""


@dataclass(frozen=True)
class EarlierCandidates:
    """The candidates of one earlier self: ``self`` (game, position, player), ``now`` (the phase of that game now),
    ``curve`` (its forgetting curve) and ``held`` (the candidates, as :class:`HeldCandidates`)."""

    self: EarlierSelf
    now: int
    curve: str
    held: HeldCandidates


def read_earlier(driver: neo4j.Driver, database: str | None, game: str, player: str, params: Parameters,
                 reader: MemoryReader, cache: EmbeddingCache) -> list[EarlierCandidates]:
    """The candidates of the players the person who is ``player`` in ``game`` was in the earlier games of its
    series, in position order ([] for a game in no series or a person new to it). See the module docstring."""
    values: dict[str, Any] = {"curve": params.curve, "vague_floor": params.clarity.vague_floor,
                              "cue_support": params.recall.cue_support, "lowest_cue_floor": cue_floor(0.0, params),
                              "player": player, "own_kinds": list(OWN_KINDS)}

    key = (database, game, player)
    known_selves = _SELVES.setdefault(reader, {})
    Read = tuple[EarlierSelf, HeldCandidates | None, Mapping[str, Any], list[str | None] | None]

    def work(tx: neo4j.ManagedTransaction) -> list[Read]:
        # the earlier selves met before, checked by the same query that reads them (one round trip); read again
        # when a game joined or left the series since
        selves = known_selves.get(key)
        if selves is None:
            selves = known_selves[key] = earlier_selves(tx, database, game, player)
        if not selves:
            return []
        held = [reader.held(held_key(database, s.game, s.player, None, params)) for s in selves]
        rows = [{"game": s.game, "player": s.player, "player_uid": player_uid(s.game, s.player),
                 "known": None if h is None else h.known} for s, h in zip(selves, held)]
        record = tx.run(cypher("recall/earlier_context"), values, player_uid=player_uid(game, player),
                        selves=rows).single(strict=True)
        if list(record["now_selves"]) != [s.game for s in selves]:
            known_selves.pop(key, None)
            raise _SeriesMoved
        out: list[Read] = []
        for s, h, row in zip(selves, held, record["selves"]):
            uids = None if row["fresh"] else reader.uids(tx, database, s.game, row["incarnation"], row["ids"])
            out.append((s, h, row, uids))
        return out

    with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS,
                        notifications_min_severity="OFF") as session:
        try:
            read = session.execute_read(work)
        except _SeriesMoved:
            read = session.execute_read(work)
    found = []
    for s, held, row, uids in read:
        taken = reader.take(held_key(database, s.game, s.player, None, params), held, row, uids)
        if taken.recued:
            cache.recued(database, s.game, row["incarnation"], taken.recued)
        found.append(EarlierCandidates(s, int(row["now"]), str(row["curve"]), taken.held))
    return found


def read_earlier_beside(driver: neo4j.Driver, database: str | None, game: str, player: str, params: Parameters,
                        reader: MemoryReader, cache: EmbeddingCache) -> Future[list[EarlierCandidates]] | None:
    """:func:`read_earlier` started in a thread of its own, so that it runs while the caller reads the owner's own
    game (two transactions at once instead of one after the other: 7 ms of a series recall's 49 on the 50-game
    series, bench/README.md), when ``reader``'s recalls have met earlier selves of ``player`` in ``game`` (it is
    known to be a game of a series); None otherwise (a game in no series, or an owner's first recall: the caller
    reads the earlier games after its own read says the game is in a series). The caller takes the result, or
    drops it when its own read says otherwise (the game left its series since)."""
    if not met_earlier_selves(reader, database, game, player):
        return None
    return _READERS.submit(read_earlier, driver, database, game, player, params, reader, cache)


def met_earlier_selves(reader: MemoryReader, database: str | None, game: str, player: str) -> bool:
    """Whether ``reader``'s recalls have met earlier selves of ``player`` in ``game`` (it is known to be a game of a
    series in which the owner's person played before)."""
    return bool(_SELVES.get(reader, {}).get((database, game, player)))
