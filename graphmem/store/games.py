"""Which games are stored, and the one error for a game id that is not."""

from __future__ import annotations

import neo4j
from neo4j import RoutingControl

from graphmem.errors import unknown_game
from graphmem.store.queries import cypher


def stored_game_ids(driver: neo4j.Driver, database: str | None) -> list[str]:
    """The ids of every stored game, sorted."""
    records, _, _ = driver.execute_query(cypher("stats/game_ids"), database_=database, routing_=RoutingControl.READ)
    return [str(r["game"]) for r in records]


def require_game(driver: neo4j.Driver, database: str | None, game: str) -> None:
    """Return when ``game`` is stored; raise NotFound otherwise (see :func:`graphmem.errors.unknown_game`)."""
    records, _, _ = driver.execute_query(cypher("ingest/game_progress"), game=game, database_=database,
                                         routing_=RoutingControl.READ)
    if not records:
        raise unknown_game(game, stored_game_ids(driver, database))
