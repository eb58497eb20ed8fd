"""Series of games in the graph (docs/graph-model.md#series-of-games): a ``Series`` node, each game's ``IN_SERIES``
edge with its position, and a ``Person`` per name linking that person's players across the games (``PLAYED_AS``).

:func:`join_series` puts a stored game into a series; :func:`series_games` reads a series' games in order;
:func:`earlier_selves` finds the players a person was in the earlier games of a game's series, which recall reads
besides the game's own memories (docs/model.md#series-of-games).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import NamedTuple

import neo4j
from neo4j import RoutingControl

from graphmem.errors import GameConflict, NotFound
from graphmem.store.games import refuse_if_moving
from graphmem.store.keys import person_uid, player_uid, series_uid
from graphmem.store.queries import cypher

__all__ = ["EarlierSelf", "Joined", "SeriesGame", "earlier_selves", "join_series", "placed", "series_games",
           "series_of"]


@dataclass(frozen=True)
class SeriesGame:
    """One game of a series: its id, position (int >= 1), last phase, decayed_to and whether its ingest completed."""

    game: str
    position: int
    last_phase: int
    decayed_to: int
    complete: bool


@dataclass(frozen=True)
class EarlierSelf:
    """The player a person was in an earlier game of the series: game id, position, player name, the Game's
    incarnation (keys recall's caches) and the phase its memories are decayed to."""

    game: str
    position: int
    player: str
    incarnation: str | None
    decayed_to: int


def series_games(driver: neo4j.Driver, database: str | None, series: str) -> tuple[int | None, list[SeriesGame]]:
    """(the series' gap in phases, its games in position order); (None, []) when the series is not stored."""
    records, _, _ = driver.execute_query(cypher("series/games"), series_uid=series_uid(series), database_=database,
                                         routing_=RoutingControl.READ)
    if not records:
        return None, []
    gap = int(records[0]["gap"])
    return gap, [SeriesGame(str(r["game"]), int(r["position"]), int(r["last_phase"]), int(r["decayed_to"]),
                            bool(r["complete"])) for r in records if r["game"] is not None]


def series_of(driver: neo4j.Driver, database: str | None, game: str) -> tuple[str, int] | None:
    """(series name, position) of a stored game, or None when it is in no series (or not stored)."""
    records, _, _ = driver.execute_query(cypher("series/of_game"), game=game, database_=database,
                                         routing_=RoutingControl.READ)
    return (str(records[0]["series"]), int(records[0]["position"])) if records else None


def placed(driver: neo4j.Driver, database: str | None, series: str, game: str, position: int | None,
           also: Mapping[int, str] | None = None) -> int:
    """The position ``game`` takes in ``series`` when it joins at ``position`` (None: where it already is, else after
    the series' last stored game and after the positions in ``also``, {position: game} of the games joining with it).
    Reads only. Raises GameConflict when the game is already in another series or at another position, or another
    game holds the position (stored, or in ``also``)."""
    current = series_of(driver, database, game)
    if current is not None and current[0] != series:
        raise GameConflict(f"game '{game}' is in series '{current[0]}' (position {current[1]}), not '{series}': a game "
                           "belongs to one series")
    if current is not None and position is not None and current[1] != position:
        raise GameConflict(f"game '{game}' is game {current[1]} of series '{series}', not game {position}")
    if current is not None:
        return current[1]
    _, games = series_games(driver, database, series)
    held = {g.position: g.game for g in games}
    held.update(also or {})
    if position is None:
        return max(held, default=0) + 1
    if held.get(position, game) != game:
        raise GameConflict(f"position {position} of series '{series}' is held by game '{held[position]}'")
    return position


class Joined(NamedTuple):
    """What :func:`join_series` did: the game's position in the series, and the nodes (the series, its people) and
    relationships Neo4j created (0 and 0 when the game was there already)."""

    position: int
    nodes_created: int
    relationships_created: int


def join_series(driver: neo4j.Driver, database: str | None, series: str, game: str, players: Sequence[str],
                position: int | None, gap: int) -> Joined:
    """Put the stored ``game`` (its ``players`` by name) into ``series`` at ``position`` (see :func:`placed`),
    creating the series with ``gap`` phases between games when it is new. Idempotent. Returns what it did
    (:class:`Joined`).

    Raises GameConflict, writing nothing, as :func:`placed`; NotFound when the game or a player is not stored.
    """
    position = placed(driver, database, series, game, position)
    people = [{"uid": person_uid(series, name), "name": name, "player": player_uid(game, name)} for name in players]
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")

    def work(tx: neo4j.ManagedTransaction) -> tuple[list[neo4j.Record], neo4j.ResultSummary]:
        refuse_if_moving(tx, game, series)  # a game joining a series that is moving away would be left behind
        result = tx.run(cypher("series/join"), series=series, series_uid=series_uid(series), gap=gap, game=game,
                        position=position, people=people, now=now)
        return list(result), result.consume()

    with driver.session(database=database) as session:
        records, summary = session.execute_write(work)
    if not records or int(records[0]["people"]) != len(players):
        raise NotFound(f"game '{game}' or one of its players is not stored: it cannot join series '{series}'")
    return Joined(position, summary.counters.nodes_created, summary.counters.relationships_created)


def earlier_selves(driver: neo4j.Driver | neo4j.ManagedTransaction, database: str | None, game: str,
                   player: str) -> list[EarlierSelf]:
    """The players the person who is ``player`` in ``game`` was in the earlier games of its series, in position
    order ([] for a game in no series or a person new to it)."""
    if isinstance(driver, neo4j.Driver):
        records, _, _ = driver.execute_query(cypher("series/earlier_selves"), player_uid=player_uid(game, player),
                                             database_=database, routing_=RoutingControl.READ)
    else:
        records = list(driver.run(cypher("series/earlier_selves"), player_uid=player_uid(game, player)))
    return [EarlierSelf(str(r["game"]), int(r["position"]), str(r["player"]),
                        None if r["incarnation"] is None else str(r["incarnation"]), int(r["decayed_to"]))
            for r in records]
