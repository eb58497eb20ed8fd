"""The HTTP face of the service: one FastAPI application with the JSON API for engines and analysts (the routers of
:mod:`graphmem.server.routes`), the MCP endpoint at ``/mcp`` for agents, ``/health`` and ``/ready`` (OpenAPI at
``/docs``). docs/service.md describes the routes, the token flow and the errors; :mod:`graphmem.server.errors` the
error body.

Every route is a plain function run in the server's thread pool over the :class:`~graphmem.targets.Targets` of the
process (``app.state.targets``: one :class:`~graphmem.service.MemoryService` per Neo4j target, whose driver is
thread-safe; they share one embedder, which batches concurrent topics); a route with a ``{game}`` works on the
service of that game's target. A process keeps no game state between requests (:mod:`graphmem.ingest.live`): any
number of processes serve the same targets.

The layers around the app, outermost first: :class:`~graphmem.server.limits.BodyLimit` (413 before anything reads
a body), :class:`~graphmem.server.errors.Unexpected` (whatever escapes becomes the JSON error body),
:class:`McpGate` (``/mcp`` without credential: a JSON-RPC error). Inside the app one handler per kind of error
answers with the JSON body, the handler for ``Exception`` included (it replaces Starlette's plain-text 500).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from graphmem.errors import GameMoving, NotFound
from graphmem.server import auth
from graphmem.server.errors import JsonAnswer, Unexpected, answer, body, invalid_request, send_json
from graphmem.server.limits import BodyLimit
from graphmem.server.models import ErrorAnswer
from graphmem.server.routes import ROUTERS
from graphmem.server.routes.health import WarmUp
from graphmem.service import MemoryService
from graphmem.settings.defaults import DEFAULT_TARGET, LOOPBACK
from graphmem.targets import Targets

log = logging.getLogger(__name__)


UNAUTHORIZED_RPC = -32001
"""The JSON-RPC error code of an MCP request without a credential (-32000..-32099: the server's own errors)."""

ERROR_ANSWERS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorAnswer, "description": what} for status, what in (
        (400, "a body that cannot be read, or an Idempotency-Key this route does not take"),
        (401, "no or an unknown credential"),
        (403, "a credential that does not grant this"), (404, "an unknown game, player or query"),
        (409, "a conflict with the stored game"), (413, "a body over the limit"), (422, "invalid content"),
        (500, "an unexpected failure (details in the server's log)"), (503, "Neo4j or the model unavailable"))}
"""The error answers every route may give, with their schema (docs/service.md, "Errors")."""


class McpGate:
    """In front of /mcp: a request without credential on a server with an engine key gets 401 at once, with a
    JSON-RPC error (the MCP client shows its message); tools check the credential itself on every call."""

    def __init__(self, app: ASGIApp, service: Targets) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].rstrip("/") == "/mcp" and self.service.settings.engine_key:
            headers = dict(scope.get("headers") or [])
            if not headers.get(b"authorization", b"").strip():
                reason = f"401 unauthorized: {auth.NEEDED}"
                payload = {"jsonrpc": "2.0", "id": None,
                           "error": {"code": UNAUTHORIZED_RPC, "message": reason,
                                     "data": body("unauthorized", auth.NEEDED)}}
                await send_json(send, 401, payload, ((b"www-authenticate", b"Bearer"),))
                return
        await self.app(scope, receive, send)


def _malformed(errors: list[Any]) -> str | None:
    """The reason when a body could not be read as JSON at all (invalid UTF-8, malformed, nested too deeply)."""
    first = errors[0] if errors else {}
    if first.get("type") == "json_invalid":
        ctx = first.get("ctx") or {}
        return f"the body is not valid JSON: {ctx.get('error', 'invalid')}"
    return None


def _unreadable(cause: BaseException | None) -> str | None:
    """Why FastAPI could not parse a JSON body that the json module did not call malformed (its 400 "error parsing
    the body"): bytes that are not UTF-8, or nesting deeper than the parser goes."""
    if isinstance(cause, UnicodeDecodeError):
        return (f"the body is not valid JSON: it is not UTF-8 (byte 0x{cause.object[cause.start]:02x} at offset "
                f"{cause.start})")
    if isinstance(cause, RecursionError):
        return "the body is not valid JSON that this server reads: nested too deeply"
    if isinstance(cause, ValueError):
        return f"the body is not valid JSON: {cause}"
    return None


def create_app(service: MemoryService | Targets, *, warm: bool = True, close: bool = False) -> ASGIApp:
    """The ASGI application over ``service`` (one target's MemoryService, or the Targets of several; the first
    target's settings give the engine key, the body limit and the host).

    warm : warm up in the background at start (the embedding model and the queries: ``/ready`` answers 200 once
    that is done and Neo4j answers); close : close the service (its driver, if it opened it) when the app stops.
    """
    from mcp.server.transport_security import TransportSecuritySettings

    from graphmem.server.mcp import build_mcp

    if isinstance(service, MemoryService):
        service = Targets({DEFAULT_TARGET: service})
    settings = service.settings
    mcp = build_mcp(service)
    loopback = settings.server_host in LOOPBACK
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=loopback,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"] if loopback else [],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"] if loopback else [])
    mcp_app = mcp.streamable_http_app(streamable_http_path="/mcp", stateless_http=True, json_response=True,
                                      max_request_body_size=settings.max_body_bytes, transport_security=security,
                                      host=settings.server_host)
    warm_up = WarmUp()

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if warm:
            warm_up.start(service)
        try:
            async with mcp.session_manager.run():
                yield
        finally:
            await anyio.to_thread.run_sync(warm_up.wait)
            if close:
                service.close()

    app = FastAPI(title="graphmem", version=_version(), lifespan=lifespan, responses=ERROR_ANSWERS,
                  description="Fallible, human-like memory for the players of social deduction games: the JSON API "
                              "for engines and analysts; agents use MCP at /mcp. See docs/service.md.")
    app.state.targets = service
    app.state.warm_up = warm_up
    for router in ROUTERS:
        app.include_router(router)

    async def known(request: Request, exc: Exception) -> JsonAnswer:
        game = request.path_params.get("game")
        if game is not None and isinstance(exc, (GameMoving, NotFound)) and service.single is None:
            exc = await anyio.to_thread.run_sync(service.moved, game, exc)  # a place kept from before a move
        status, payload = answer(exc, getattr(request.state, "neo4j", settings.uri))  # the game's target's
        return JsonAnswer(payload, status, headers={"Retry-After": "1"} if isinstance(exc, GameMoving) else None)

    # Exception too: Starlette's error middleware then answers with this JSON instead of its plain-text 500
    app.add_exception_handler(Exception, known)

    async def routing(request: Request, exc: Exception) -> JsonAnswer:
        assert isinstance(exc, StarletteHTTPException)
        # an unknown route: the same JSON body as every other error, not Starlette's plain text
        if exc.status_code == 404:
            reason = f"no such route: {request.method} {request.url.path} (the API is listed at /docs)"
            return JsonAnswer(body("not_found", reason), 404)
        unreadable = _unreadable(exc.__cause__)
        if exc.status_code == 400 and unreadable is not None:
            return JsonAnswer(body("malformed_json", unreadable), 400)
        return JsonAnswer(body("http_error", str(exc.detail)), exc.status_code, headers=exc.headers)

    app.add_exception_handler(StarletteHTTPException, routing)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JsonAnswer:
        errors = list(exc.errors())
        malformed = _malformed(errors)
        if malformed is not None:
            return JsonAnswer(body("malformed_json", malformed), 400)
        return JsonAnswer(invalid_request(errors), 422)

    # the MCP app is mounted at the root (its route is /mcp), so it answers every unknown route: with our JSON too
    mcp_app.add_exception_handler(StarletteHTTPException, routing)
    app.mount("/", mcp_app)
    return BodyLimit(Unexpected(McpGate(app, service), settings.uri), settings.max_body_bytes)


def _version() -> str:
    from graphmem import __version__

    return __version__


__all__ = ["create_app"]
