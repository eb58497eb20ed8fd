"""graphmem's errors as HTTP answers: a status and one JSON body ``{"error", "field", "index", "reason"}``.

error : a short kind ("invalid_events", "not_found", "conflict", ...); field : the offending field or None;
index : the 0-based position of the offending event in its batch, or None; reason : one line saying what is wrong
and what to do. An invalid batch also lists, in ``problems``, one problem per refused event
(an event that breaks the format is not also checked against the game). Never a traceback.

Each :class:`~graphmem.errors.GraphmemError` class carries its status and kind (``http_status``, ``error``), so this
module only shapes the body; the driver's own errors (Neo4j down or busy) are the one family it classifies.
Status codes as HTTP means them: 400 a request that cannot be read (malformed JSON, a bad Authorization header),
401 no or an unknown credential, 403 a credential that does not grant the operation, 404 an unknown game, player or
query, 409 a conflict with the stored state (a batch that does not follow the stored events, an ended game, a game
stored from a file), 413 a body over the configured limit, 422 a well-formed request with invalid content (an event
the game refuses, a bad parameter value), 503 Neo4j (or the embedding model) unavailable, naming the URI; 500 for
anything unexpected (logged with its traceback, never shown).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from neo4j.exceptions import DriverError, ServiceUnavailable, SessionExpired, TransientError
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.errors import GraphmemError, InvalidGameLog

log = logging.getLogger(__name__)


def json_bytes(payload: Any) -> bytes:
    """``payload`` as UTF-8 JSON. A lone surrogate a client sent (refused, but quoted back in a reason or as an
    event's ``id``) is written as its JSON escape ``\\ud83d``, as the client sent it: UTF-8 cannot hold it, and an
    answer that failed on it would be a 500 in place of the 422 that names it."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "backslashreplace")


class JsonAnswer(JSONResponse):
    """A JSON answer rendered by :func:`json_bytes` (the error answers of the app, the routes and the middlewares)."""

    def render(self, content: Any) -> bytes:
        return json_bytes(content)


def body(error: str, reason: str, *, field: str | None = None, index: int | None = None,
         **extra: Any) -> dict[str, Any]:
    """The JSON error body."""
    return {"error": error, "field": field, "index": index, "reason": reason, **extra}


def invalid_request(errors: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The 422 ``invalid_request`` body of a request whose fields pydantic refused (``errors``: its
    ``ValidationError.errors()``): the first error's field, dotted (``k``, ``participants.0``, without FastAPI's
    ``body``), its 0-based index when it lies in a list, and pydantic's message. An HTTP body and an MCP tool's
    arguments are refused with it alike."""
    first = errors[0] if errors else {}
    loc = [str(p) for p in first.get("loc", ()) if p != "body"]
    index = next((int(p) for p in loc if p.isdigit()), None)
    return body("invalid_request", f"{'.'.join(loc) or 'body'}: {first.get('msg', 'invalid')}",
                field=".".join(loc) or None, index=index)


def _first_line(exc: BaseException) -> str:
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__


def answer(exc: BaseException, uri: str) -> tuple[int, dict[str, Any]]:
    """(status, JSON body) for an exception raised while serving a request; ``uri`` is the Neo4j URI (named in
    503 answers). An exception graphmem does not expect is logged with its traceback and answered 500."""
    if isinstance(exc, InvalidGameLog):
        first = exc.problems[0] if exc.problems else None
        problems = [{"index": p.index, "id": p.event_id, "field": p.field or None, "reason": p.reason,
                     **({"line": p.line} if p.index is None and p.line and p.place is None else {}),
                     **({"file": p.file} if p.file else {})}
                    for p in exc.problems]
        reason = str(first) if first is not None else str(exc)
        return 422, body("invalid_events" if first is not None and first.index is not None else exc.error,
                         reason, field=first.field or None if first else None, index=first.index if first else None,
                         problems=problems)
    if isinstance(exc, GraphmemError):
        return exc.http_status, body(exc.error, _first_line(exc), field=getattr(exc, "field", None))
    if isinstance(exc, (ServiceUnavailable, SessionExpired)):
        return 503, body("neo4j_unavailable", f"Neo4j at {uri} does not answer ({type(exc).__name__}): try again "
                                              "when it is back (a batch is written whole or not at all)")
    if isinstance(exc, TransientError):
        return 503, body("neo4j_busy", f"Neo4j at {uri} could not finish this request now ({exc.code}): try again")
    if isinstance(exc, DriverError):
        return 503, body("neo4j_unavailable", f"Neo4j at {uri}: {type(exc).__name__}: try again")
    log.error("unexpected error while serving a request: %s: %s", type(exc).__name__, exc,
              exc_info=(type(exc), exc, exc.__traceback__))
    return 500, body("internal_error", f"{type(exc).__name__}: the server failed on this request (its log has "
                                       "the details)")


async def send_json(send: Send, status: int, payload: dict[str, Any],
                    headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    """Send a whole JSON answer over ASGI (for the middlewares, which answer before or around the app)."""
    data = json_bytes(payload)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
                            *headers]})
    await send({"type": "http.response.body", "body": data})


class ResponseTracker:
    """An ASGI ``send`` that records whether the response has started (``started``): until then a middleware can
    still answer in the app's place; after, it can only let the error through."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.started = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
        await self._send(message)


class Unexpected:
    """The outermost layer: an exception that escapes everything inside (a middleware's, or one raised before the
    app answered) becomes the JSON error answer, never a dropped connection or a plain-text 500. Exceptions of the
    routes are answered inside the app (its handler for ``Exception`` replaces Starlette's plain-text 500), so the
    answer is JSON even when Starlette's error middleware is the one that sends it."""

    def __init__(self, app: ASGIApp, uri: str) -> None:
        self.app = app
        self.uri = uri

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        tracked = ResponseTracker(send)
        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:
            if scope["type"] != "http":
                raise
            if tracked.started:
                return  # answered (in JSON) by the app's handler for Exception, which logged it with its traceback
            status, payload = answer(exc, self.uri)
            await send_json(send, status, payload)
