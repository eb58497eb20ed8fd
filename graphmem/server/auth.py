"""Who is asking: the engine (with the engine key) or one player's agent (with its player token).

A request carries its credential as ``Authorization: Bearer <engine key or player token>``. The engine key comes
from the configuration (``[server] engine_key`` or ``GRAPHMEM_ENGINE_KEY``) and is compared in constant time; a
player token is checked against its stored hash (:mod:`graphmem.store.tokens`) on every request, so a token stops
working in every server process the moment its game ends, is deleted, or the token is revoked.

Without a configured engine key the server listens on loopback only, and a request without credential is the
engine's (as the local Neo4j disables authentication on loopback); a player token still confines its agent.

Credentials are never logged: the messages here name the game and player a token was for, never the token.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from graphmem.errors import Forbidden, Unauthorized
from graphmem.service import MemoryService


@dataclass(frozen=True)
class Engine:
    """The engine (or an analyst) holding the engine key: every operation."""


@dataclass(frozen=True)
class Agent:
    """One player's agent: the agent operations of ``player`` in ``game`` (recall, push a thought, list its
    conflicts), nothing else."""

    game: str
    player: str


Principal = Engine | Agent


def bearer(authorization: str | None) -> str | None:
    """The credential of an ``Authorization: Bearer X`` header (None when absent or empty)."""
    if not authorization:
        return None
    scheme, _, value = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <engine key or player token>'")
    return value.strip()


def resolve(service: MemoryService, credential: str | None) -> Principal:
    """The principal of a credential. Raises Unauthorized (no credential where a key is configured, an unknown
    key or token) or Forbidden (a revoked token, or one of an ended or deleted game)."""
    key = service.settings.engine_key
    if credential is None:
        if key is None:
            return Engine()
        raise Unauthorized("this server needs a credential: 'Authorization: Bearer <engine key or player token>'")
    if key is not None and hmac.compare_digest(credential.encode(), key.encode()):
        return Engine()
    grant = service.check_token(credential)
    return Agent(grant.game, grant.player)


def require_engine(principal: Principal, what: str) -> None:
    """Return for the engine; raise Forbidden for an agent (``what``: the operation refused, for the message)."""
    if isinstance(principal, Agent):
        raise Forbidden(f"a player token grants only its player's memory ({principal.player} in game "
                        f"'{principal.game}'): {what} needs the engine key")


def require_player(principal: Principal, game: str, player: str) -> None:
    """Return for the engine or for the agent of ``player`` in ``game``; raise Forbidden for any other agent."""
    if isinstance(principal, Agent) and (principal.game, principal.player) != (game, player):
        if principal.game != game:
            raise Forbidden(f"this player token is for game '{principal.game}', not '{game}'")
        raise Forbidden(f"this player token is {principal.player}'s: it cannot reach {player}'s memory")
