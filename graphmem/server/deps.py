"""The dependencies of the HTTP routes: the process's service, who is asking (FastAPI's ``HTTPBearer``), and the
checks of what the caller may do (:mod:`graphmem.server.auth`).

``Service`` is the :class:`~graphmem.service.MemoryService` of the process (``app.state.service``); ``Caller`` the
principal of the request's credential; ``EngineOnly`` refuses a player token (403); ``PlayerName`` is the route's
``{player}`` as stored (NFC) once the caller may reach that player's memory.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from graphmem.errors import Unauthorized
from graphmem.server import auth
from graphmem.service import MemoryService

bearer = HTTPBearer(auto_error=False, scheme_name="graphmem credential",
                    description="The engine key (every operation) or a player token (that player's agent operations)")


def service(request: Request) -> MemoryService:
    """The process's MemoryService."""
    found: MemoryService = request.app.state.service
    return found


Service = Annotated[MemoryService, Depends(service)]


def caller(request: Request, memory: Service,
           credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> auth.Principal:
    """The principal of the request's ``Authorization: Bearer`` credential. Raises Unauthorized (401) for a header
    that is not a Bearer credential, or as :func:`graphmem.server.auth.resolve`."""
    if credentials is None:
        if request.headers.get("authorization", "").strip():
            raise Unauthorized(auth.MALFORMED)
        return auth.resolve(memory, None)
    return auth.resolve(memory, credentials.credentials)


Caller = Annotated[auth.Principal, Depends(caller)]


def engine(principal: Caller) -> None:
    """Return for the engine; Forbidden (403) for a player token."""
    auth.require_engine(principal, "this operation")


EngineOnly = Depends(engine)


def player_name(game: str, player: str, principal: Caller) -> str:
    """The route's player as stored (NFC), once the caller may reach that player's memory (403 otherwise)."""
    return auth.require_player(principal, game, player)


PlayerName = Annotated[str, Depends(player_name)]
