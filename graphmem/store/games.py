"""Which games are stored, the one error for a game id that is not, and the refusal of a write to a game that is
being moved."""

from __future__ import annotations

from typing import Any

import neo4j
from neo4j import RoutingControl

from graphmem.errors import GameMoving, unknown_game
from graphmem.store.keys import series_uid
from graphmem.store.queries import cypher, with_identifiers


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


DELETE_ORDER = ("PlayerToken", "MemoryVersion", "Memory", "Source", "Conflict", "Thought", "Event", "Phase", "Player",
                "LogBatch", "IdempotencyKey", "Game")
"""Labels in deletion order: the player tokens first (they stop working at once), then memories (they hold most
relationships, so a player is cheap to delete once they are gone), the Game node last, so a delete interrupted
half-way still lists the game and running it again finishes."""


def delete_game(driver: neo4j.Driver, database: str | None, game: str) -> dict[str, int]:
    """Delete every node and relationship of ``game`` (docs/graph-model.md labels); returns {label: nodes deleted}, all 0
    for a game that is not stored (call :func:`require_game` first to refuse that). Other games are untouched.
    """
    deleted: dict[str, int] = {}
    with driver.session(database=database) as session:
        for label in DELETE_ORDER:
            query = with_identifiers(cypher("ingest/delete_game"), label=label)
            deleted[label] = int(session.run(query, game=game).single(strict=True)["deleted"])
    return deleted


MOVING_TO = "moving_to"
"""The mark of a game (its Game node) or series (its Series node) that a move is taking away from this database: the
destination target's name (graphmem.store.moves)."""
ARRIVING_FROM = "arriving_from"
"""The mark of a moved copy that is not its game's (series') place yet: the source target's name."""


def refuse_if_moving(tx: neo4j.ManagedTransaction, game: str | None, series: str | None = None) -> None:
    """Raise GameMoving when ``game`` (or its series, or the series ``series`` it is about to join) is being moved
    away from this database; run it first in every write transaction of a game (``cypher/targets/moving``). With the
    move's drain (:func:`graphmem.store.moves.move`), a write either ends before the move reads anything or is refused."""
    record = tx.run(cypher("targets/moving"), moving_parameters(game, series)).single()
    refuse_moving(record["moving_to"] if record is not None else None, game, series)


def moving_parameters(game: str | None, series: str | None = None) -> dict[str, Any]:
    """The parameters of ``cypher/targets/moving`` for ``game`` (and the series ``series`` it is about to join): for
    :func:`refuse_if_moving`, and for a write that runs the query as part of its own statement
    (:func:`graphmem.store.versions.run_raising_versions`)."""
    return {"game": game, "series_uid": series_uid(series) if series is not None else None, "moving": MOVING_TO,
            "series_key": "series"}


def refuse_moving(moving_to: str | None, game: str | None, series: str | None = None) -> None:
    """Raise GameMoving when ``moving_to`` (the column of ``cypher/targets/moving``) names the target ``game`` (or
    ``series``) is being moved to; nothing when it is None."""
    if moving_to is not None:
        what = f"game '{game}'" if game is not None else f"series '{series}'"
        raise GameMoving(f"{what} is being moved to target '{moving_to}': nothing was written; send the "
                         "request again in a few seconds, once it has arrived")
