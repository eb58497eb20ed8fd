"""What a request body must be before a route reads it: at most ``max_body_bytes`` (:class:`BodyLimit`, ASGI
middleware around the whole app, before anything reads the body) and, for a JSON body, UTF-8 (:class:`Utf8JsonRoute`,
the route class of every router)."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.errors import BodyTooLarge, IdempotencyKeyUnsupported, MalformedRequest
from graphmem.server.errors import ResponseTracker, body, send_json


class BodyLimit:
    """Refuse a request whose body is over ``limit`` bytes with 413: at once when its Content-Length says so; a
    body without one (chunked) is read here first, at most ``limit`` bytes, and refused as soon as it passes the
    limit (the route never sees it; an accepted one is handed on whole).

    app : the ASGI app; limit : int, bytes
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                size = -1
            if size > self.limit:
                await self._refuse(send, size)
                return
        else:
            # no Content-Length (a chunked body): read it whole here, up to the limit, before the app sees any of it;
            # refused from inside the app's own reading, the route's body parser would answer for us (400 or 500)
            await self._buffered(scope, receive, send)
            return
        seen = 0
        refused = False

        async def counted() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    refused = True
                    raise _TooLarge()
            return message

        tracked = ResponseTracker(send)
        try:
            await self.app(scope, counted, tracked)
        except _TooLarge:
            if not tracked.started:
                await self._refuse(send, seen)
        except Exception:
            if refused and not tracked.started:
                await self._refuse(send, seen)
            else:
                raise

    async def _buffered(self, scope: Scope, receive: Receive, send: Send) -> None:
        held: list[Message] = []
        seen = 0
        while True:
            message = await receive()
            held.append(message)
            if message["type"] != "http.request":
                break  # the client went away: let the app see it
            seen += len(message.get("body", b""))
            if seen > self.limit:
                await self._refuse(send, seen)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return held.pop(0) if held else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send, size: int) -> None:
        shown = f"{size} bytes" if size >= 0 else "a body of unreadable length"
        refused = BodyTooLarge(f"the request body ({shown}) is over this server's limit of {self.limit} bytes "
                               "(max_body_bytes): nothing was read")
        await send_json(send, refused.http_status, body(refused.error, str(refused)))


class _TooLarge(Exception):
    pass


class _Utf8JsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            raw = await self.body()
            # json.loads(bytes) decodes with "surrogatepass": the bytes of a UTF-16 surrogate (ED A0 BD, not UTF-8)
            # would pass as a lone surrogate, a 422 about the text where the body is unreadable (400)
            self._json = json.loads(raw.decode(json.detect_encoding(raw)))
        return self._json


class Utf8JsonRoute(APIRoute):
    """A route whose JSON body is decoded strictly: bytes that are not UTF-8 (encoded surrogates included) are a
    body that cannot be read, 400 ``malformed_json`` (docs/service.md, "Errors"), never text with a lone surrogate
    in it (the FastAPI way to change how a route reads its request: a custom ``APIRoute``). A body that is not
    multipart is read before the route's parameters, and kept.

    Its ``Idempotency-Key`` header is checked first (docs/service.md#retries): more than one is 400
    ``malformed_request`` (which key would name the request?), and one sent to a route that does not carry writes
    out once per key is 400 ``idempotency_key_unsupported``, where it would be ignored and a retry carried out
    again."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        from graphmem.server.deps import takes_idempotency_key

        handler = super().get_route_handler()
        keyed = takes_idempotency_key(self)

        async def strict(request: Request) -> Response:
            keys = request.headers.getlist(KEY_HEADER)
            if len(keys) > 1:
                raise MalformedRequest(f"{len(keys)} Idempotency-Key headers: a request is named by one key",
                                       "Idempotency-Key")
            if keys and not keyed:
                raise IdempotencyKeyUnsupported(
                    f"{request.method} {self.path_format} takes no Idempotency-Key: it would be ignored, and the "
                    f"request carried out again if sent again; the routes that take one: {_keyed(request)}")
            strict_request = _Utf8JsonRequest(request.scope, request.receive)
            if not request.headers.get("content-type", "").startswith("multipart/"):
                # read once and kept: a JSONL log sent to /ingest as a form (curl --data-binary's default type)
                # is parsed as a form for its ``files`` field and still read whole by the route
                await strict_request.body()
            return await handler(strict_request)

        return strict


KEY_HEADER = "idempotency-key"
"""The header that names a write to carry out once (docs/service.md#retries), as ASGI spells header names."""


def _keyed(request: Request) -> str:
    """The routes of the request's app that take an Idempotency-Key, as its OpenAPI document lists their headers:
    "POST /games, POST /games/{game}/events, ..."."""
    paths: dict[str, dict[str, Any]] = request.app.openapi().get("paths", {})
    return ", ".join(f"{method.upper()} {path}" for path, operations in paths.items()
                     for method, operation in operations.items()
                     if any(p.get("in") == "header" and p.get("name", "").lower() == KEY_HEADER
                            for p in operation.get("parameters", ())))
