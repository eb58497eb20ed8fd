"""Player tokens: minted and revoked by the engine (docs/service.md, "Credentials")."""

from __future__ import annotations

from fastapi import APIRouter

from graphmem.logs.schema import nfc
from graphmem.server.deps import EngineOnly, Service
from graphmem.server.limits import Utf8JsonRoute
from graphmem.server.models import Revoked, Token

router = APIRouter(tags=["tokens"], dependencies=[EngineOnly], route_class=Utf8JsonRoute)


@router.post("/games/{game}/players/{player}/tokens", status_code=201)
def mint_token(game: str, player: str, memory: Service) -> Token:
    """A new player token: it grants that player's agent operations only. Shown once; keep it."""
    player = nfc(player)
    return Token(game=game, player=player, token=memory.mint_token(game, player))


@router.delete("/games/{game}/tokens")
def revoke_tokens(game: str, memory: Service, player: str | None = None) -> Revoked:
    """Revoke the game's player tokens (one player's with ``player``: 404 for a player the game does not have)."""
    player = nfc(player) if player is not None else None
    return Revoked(game=game, player=player, revoked=memory.revoke_tokens(game, player))
