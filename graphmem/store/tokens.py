"""Player tokens: what an engine hands each player's agent so that it reaches its own memory and nothing else.

A token is 32 random bytes (``secrets.token_urlsafe``) prefixed ``gmp_``; Neo4j keeps only its SHA-256 (a
``PlayerToken`` node with the game and the player), so a copy of the database grants nothing and any server
process verifies any token (no state in the process). A token minted while its game is live stops working when the
game ends (its ``end`` event) or is deleted (the tokens are deleted with the game), or when it is revoked. A token
minted for a game that has already ended (to let an agent look back on it) works until revoked or deleted.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone

import neo4j

from graphmem.errors import Forbidden, NotFound, Unauthorized
from graphmem.store.games import refuse_if_moving
from graphmem.store.keys import token_uid
from graphmem.store.queries import cypher

TOKEN_PREFIX = "gmp_"
"""Every player token starts with it (so a leaked one is recognisable, as GitHub's ``ghp_`` are)."""


@dataclass(frozen=True)
class PlayerGrant:
    """What a working player token grants: the agent operations of ``player`` in ``game``, nothing else."""

    game: str
    player: str


def token_sha256(token: str) -> str:
    """The hex SHA-256 of a token's UTF-8 text (what Neo4j stores)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def mint(driver: neo4j.Driver, database: str | None, game: str, player: str) -> tuple[str, bool]:
    """A new token for ``player`` of ``game``: (the token, whether it stops working when the game ends).

    Raises NotFound when the game or the player is not stored (the caller names what exists).
    """
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")

    def work(tx: neo4j.ManagedTransaction) -> list[neo4j.Record]:
        refuse_if_moving(tx, game)  # a token minted on a game's old target would be lost with it
        return list(tx.run(cypher("tokens/mint"), uid=token_uid(token_sha256(token)), game=game, player=player,
                           now=now))

    with driver.session(database=database) as session:
        records = session.execute_write(work)
    if not records:
        raise NotFound(f"no player '{player}' in game '{game}'")
    return token, bool(records[0]["expires_with_game"])


def verify(driver: neo4j.Driver, database: str | None, token: str) -> PlayerGrant:
    """The grant of a working token. Raises Unauthorized for a token the server never minted (or not a token at
    all), Forbidden for a revoked one, or one of a deleted or (when minted during it) ended game."""
    if not token.startswith(TOKEN_PREFIX):
        raise Unauthorized("not a graphmem player token (they start with 'gmp_'), nor the engine key")
    records, _, _ = driver.execute_query(cypher("tokens/verify"), uid=token_uid(token_sha256(token)),
                                         database_=database, routing_=neo4j.RoutingControl.READ)
    if not records:
        raise Unauthorized("unknown player token (never minted here, or its game was deleted)")
    r = records[0]
    if r["revoked"]:
        raise Forbidden(f"this player token of {r['player']} in game '{r['game']}' was revoked")
    if not r["stored"]:
        raise Forbidden(f"game '{r['game']}' was deleted: its player tokens no longer work")
    if r["ended"] and r["expires_with_game"]:
        raise Forbidden(f"game '{r['game']}' has ended: the player tokens minted during it no longer work")
    return PlayerGrant(str(r["game"]), str(r["player"]))


def revoke(driver: neo4j.Driver, database: str | None, game: str, player: str | None = None) -> int:
    """Revoke the working tokens of ``game`` (of ``player`` only, when given); returns how many."""
    records, _, _ = driver.execute_query(cypher("tokens/revoke"), game=game, player=player, database_=database)
    return int(records[0]["revoked"]) if records else 0
