"""Who is asking: the engine (with the engine key) or one player's agent (with its player token).

A request carries its credential as ``Authorization: Bearer <engine key or player token>`` (read by FastAPI's
``HTTPBearer`` for the HTTP routes, :mod:`graphmem.server.deps`, and by its parser for MCP calls). The engine key comes
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
from typing import Any

from fastapi.security.utils import get_authorization_scheme_param

from graphmem.errors import Forbidden, Unauthorized
from graphmem.logs.schema import nfc
from graphmem.service import MemoryService
from graphmem.targets import Targets

MALFORMED = "the Authorization header must be 'Bearer <engine key or player token>'"
NEEDED = "this server needs a credential: 'Authorization: Bearer <engine key or player token>'"


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
    """The credential of an ``Authorization: Bearer X`` header (None when absent or empty); Unauthorized for a
    header of another scheme (a credential sent wrongly is never taken for no credential)."""
    if not authorization or not authorization.strip():
        return None
    scheme, value = get_authorization_scheme_param(authorization.strip())
    if scheme.lower() != "bearer" or not value.strip():
        raise Unauthorized(MALFORMED)
    return value.strip()


def resolve(targets: Targets, credential: str | None) -> Principal:
    """The principal of a credential (a player token is checked on the target that minted it). Raises Unauthorized
    (no credential where a key is configured, an unknown key or token) or Forbidden (a revoked token, or one of an
    ended or deleted game)."""
    if credential is None:
        if targets.settings.engine_key is None:
            return Engine()
        raise Unauthorized(NEEDED)
    if is_engine_key(targets, credential):
        return Engine()
    grant = targets.check_token(credential)
    return Agent(grant.game, grant.player)


def is_engine_key(targets: Targets, credential: str) -> bool:
    """Whether ``credential`` is the configured engine key (compared in constant time; False without a key)."""
    key = targets.settings.engine_key
    return key is not None and hmac.compare_digest(credential.encode(), key.encode())


def require_engine(principal: Principal, what: str = "this operation") -> None:
    """Return for the engine; raise Forbidden for an agent. ``what``: the part of an operation an agent may not use
    (a recall's ``at``); an operation that is the engine's whole (an engine route, an engine MCP tool) keeps the
    default, so that a route and a tool refuse a token in the same words (the caller knows what it called)."""
    if isinstance(principal, Agent):
        raise Forbidden(f"a player token grants only its player's memory ({principal.player} in game "
                        f"'{principal.game}'): {what} needs the engine key")


def require_player(principal: Principal, game: str, player: str) -> str:
    """The player's name as stored (Unicode NFC: a name sent decomposed, NFD, is the same player) when ``principal``
    is the engine or the agent of ``player`` in ``game``; raise Forbidden for any other agent."""
    player = nfc(player)
    if isinstance(principal, Agent) and (principal.game, principal.player) != (game, player):
        if principal.game != game:
            raise Forbidden(f"this player token is for game '{principal.game}', not '{game}'")
        raise Forbidden(f"this player token is {principal.player}'s: it cannot reach {player}'s memory")
    return player


def recall_for(service: MemoryService, principal: Principal, game: str, player: str, topic: str | None,
               participants: list[str], *, k: int | None, dry_run: bool = False, seed: int | None = None,
               at: int | None = None) -> dict[str, Any]:
    """One recall as ``principal`` may see it (the HTTP route and the MCP tool), ``player`` already checked with
    :func:`require_player`: the player's agent gets its JSON without the ground truth
    (:meth:`graphmem.recall.result.RecallResult.agent_dict`), the engine all of it. ``dry_run`` is anyone's who may
    recall the player, and so is ``seed`` with it; a recall that writes with a chosen ``seed`` is the engine's (an
    agent could try seeds in dry runs and then write the reconstruction it likes best), and so is ``at``, a look
    into another phase (Forbidden for a token)."""
    if at is not None:
        require_engine(principal, "a recall at another phase (at)")
    if seed is not None and not dry_run:
        require_engine(principal, "a recall that writes with a chosen seed (seed without dry_run)")
    result = service.recall(game, player, topic, participants=participants, k=k, seed=seed, dry_run=dry_run, at=at)
    return result.agent_dict() if isinstance(principal, Agent) else result.as_dict()
