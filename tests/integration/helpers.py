"""What the integration tests share: a fresh game id, a snapshot of a game's graph, and clearing the games a test
made (through graphmem's own delete, :func:`graphmem.store.games.delete_game`, so a test clears exactly what
``graphmem delete`` would, label by label, never by a scan of every node)."""

from __future__ import annotations

import uuid
from typing import Any

import neo4j

from graphmem.store.games import delete_game


def fresh(name: str) -> str:
    """A game id no earlier run stored (the tests may run against a database that keeps games)."""
    return f"{name}-{uuid.uuid4().hex[:8]}"


def snapshot(driver: neo4j.Driver, game: str) -> tuple[list[Any], list[Any]]:
    """Every node (labels, properties) and relationship (type, ends, properties) of a game."""
    nodes = driver.execute_query("MATCH (n {game: $game}) RETURN n.uid AS uid, labels(n) AS labels, "
                                 "properties(n) AS props ORDER BY uid", game=game).records
    rels = driver.execute_query("MATCH (a {game: $game})-[r]->(b) RETURN a.uid AS a, type(r) AS t, b.uid AS b, "
                                "properties(r) AS props ORDER BY a, t, b", game=game).records
    return [r.data() for r in nodes], [r.data() for r in rels]


def clear(driver: neo4j.Driver, *games: str) -> None:
    """Delete every node of ``games`` as ``graphmem delete`` does (a game that is not stored is nothing to do)."""
    for game in games:
        delete_game(driver, None, game)


def recall_counts(driver: neo4j.Driver, game: str, owner: str) -> dict[str, int]:
    """How often each of ``owner``'s memories of ``game`` was recalled (``n``), by uid."""
    records = driver.execute_query("MATCH (m:Memory {game: $game, owner: $owner}) RETURN m.uid AS uid, m.n AS n",
                                   game=game, owner=owner).records
    return {r["uid"]: r["n"] for r in records}
