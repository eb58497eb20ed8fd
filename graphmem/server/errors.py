"""graphmem's errors as HTTP answers: a status and one JSON body ``{"error", "field", "index", "reason"}``.

error : a short kind ("invalid_events", "not_found", "conflict", ...); field : the offending field or None;
index : the 0-based position of the offending event in its batch, or None; reason : one line saying what is wrong
and what to do. An invalid batch also lists, in ``problems``, one problem per refused event
(an event that breaks the format is not also checked against the game). Never a traceback.

Status codes as HTTP means them: 400 a request that cannot be read (malformed JSON, a bad Authorization header),
401 no or an unknown credential, 403 a credential that does not grant the operation, 404 an unknown game, player or
query, 409 a conflict with the stored state (a batch that does not follow the stored events, an ended game, a game
stored from a file), 413 a body over the configured limit, 422 a well-formed request with invalid content (an event
the game refuses, a bad parameter value), 503 Neo4j (or the embedding model) unavailable, naming the URI.
"""

from __future__ import annotations

import logging
from typing import Any

from neo4j.exceptions import DriverError, ServiceUnavailable, SessionExpired, TransientError

from graphmem.errors import (
    BodyTooLarge,
    EmbeddingError,
    Forbidden,
    GameConflict,
    GraphmemError,
    InvalidGameLog,
    Neo4jUnavailable,
    NotFound,
    Unauthorized,
    UnknownQuery,
    UsageProblem,
)

log = logging.getLogger(__name__)


class MalformedRequest(UsageProblem):
    """A request body that is not the JSON (or JSONL) the route reads: HTTP 400."""

    def __init__(self, reason: str, field: str | None = None) -> None:
        super().__init__(reason)
        self.field = field


def body(error: str, reason: str, *, field: str | None = None, index: int | None = None,
         **extra: Any) -> dict[str, Any]:
    """The JSON error body."""
    return {"error": error, "field": field, "index": index, "reason": reason, **extra}


def answer(exc: BaseException, uri: str) -> tuple[int, dict[str, Any]]:
    """(status, JSON body) for an exception raised while serving a request; ``uri`` is the Neo4j URI (named in
    503 answers)."""
    if isinstance(exc, InvalidGameLog):
        first = exc.problems[0] if exc.problems else None
        problems = [{"index": p.index, "id": p.event_id, "field": p.field or None, "reason": p.reason,
                     **({"line": p.line} if p.index is None and p.line and p.place is None else {})}
                    for p in exc.problems]
        reason = str(first) if first is not None else str(exc)
        return 422, body("invalid_events" if first is not None and first.index is not None else "invalid_log",
                         reason, field=first.field or None if first else None, index=first.index if first else None,
                         problems=problems)
    if isinstance(exc, MalformedRequest):
        return 400, body("malformed_request", str(exc), field=exc.field)
    if isinstance(exc, BodyTooLarge):
        return 413, body("body_too_large", str(exc))
    if isinstance(exc, Unauthorized):
        return 401, body("unauthorized", str(exc))
    if isinstance(exc, Forbidden):
        return 403, body("forbidden", str(exc))
    if isinstance(exc, (NotFound, UnknownQuery)):
        return 404, body("not_found", str(exc))
    if isinstance(exc, GameConflict):
        return 409, body("conflict", str(exc))
    if isinstance(exc, UsageProblem):
        return 422, body("invalid_request", str(exc))
    if isinstance(exc, Neo4jUnavailable):
        return 503, body("neo4j_unavailable", str(exc).splitlines()[0])
    if isinstance(exc, (ServiceUnavailable, SessionExpired)):
        return 503, body("neo4j_unavailable", f"Neo4j at {uri} does not answer ({type(exc).__name__}): try again "
                                              "when it is back (a batch is written whole or not at all)")
    if isinstance(exc, TransientError):
        return 503, body("neo4j_busy", f"Neo4j at {uri} could not finish this request now ({exc.code}): try again")
    if isinstance(exc, DriverError):
        return 503, body("neo4j_unavailable", f"Neo4j at {uri}: {type(exc).__name__}: try again")
    if isinstance(exc, EmbeddingError):
        return 503, body("model_unavailable", str(exc).splitlines()[0])
    if isinstance(exc, GraphmemError):
        if type(exc).__name__ == "RecallConflict":
            return 409, body("conflict", str(exc))
        return 500, body("failed", str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    log.error("unexpected error while serving a request: %s: %s", type(exc).__name__, exc,
              exc_info=(type(exc), exc, exc.__traceback__))
    return 500, body("internal_error", f"{type(exc).__name__}: the server failed on this request (its log has "
                                       "the details)")
