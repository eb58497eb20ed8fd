"""The dependencies of the HTTP routes: the process's targets and the service of the route's game, who is asking
(FastAPI's ``HTTPBearer``), and the checks of what the caller may do (:mod:`graphmem.server.auth`).

``AllTargets`` is the :class:`~graphmem.targets.Targets` of the process (``app.state.targets``); ``Service`` the
:class:`~graphmem.service.MemoryService` of the target the route's ``{game}`` lives on (the first target for a route
without one); ``Caller`` the
principal of the request's credential; ``EngineOnly`` refuses a player token (403); ``PlayerName`` is the route's
``{player}`` as stored (NFC) once the caller may reach that player's memory; ``Once`` carries a write out at most
once per ``Idempotency-Key`` header.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from typing import Annotated, Any, TypeGuard

from fastapi import Depends, Header, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, TypeAdapter, ValidationError

from graphmem.errors import Unauthorized
from graphmem.logs.schema import GameId, SeriesName
from graphmem.server import auth
from graphmem.server.errors import JsonAnswer
from graphmem.service import MemoryService
from graphmem.store.idempotency import Answer
from graphmem.store.keys import player_uid
from graphmem.targets import Targets

bearer = HTTPBearer(auto_error=False, scheme_name="graphmem credential",
                    description="The engine key (every operation) or a player token (that player's agent operations)")


# The dependencies that do no I/O are ``async def``: FastAPI runs each plain ``def`` dependency in its thread pool, a
# hop of ~0.1-0.2 ms of CPU each (a thread woken, the interpreter lock handed over and back); a recall went through
# five of them before its route's own (bench/README.md, "CPU per writing recall"). The ones that may ask Neo4j (a
# game on one of several targets, a player token) do that in the thread pool themselves.


async def targets(request: Request) -> Targets:
    """The process's Targets."""
    found: Targets = request.app.state.targets
    return found


AllTargets = Annotated[Targets, Depends(targets)]


def routed(request: Request, memory: MemoryService) -> MemoryService:
    """``memory``, once the request names its Neo4j (a 503 answer names the URI of the game's target)."""
    request.state.neo4j = memory.settings.uri
    return memory


async def service(request: Request, every: AllTargets) -> MemoryService:
    """The service of the target the route's ``{game}`` lives on (:meth:`graphmem.targets.Targets.for_game`, in the
    thread pool when there are several targets: it may ask every one), or of the first target for a route without a
    game or with one target."""
    import anyio.to_thread

    game = request.path_params.get("game")
    if game is None or len(every.names) == 1:
        return routed(request, every.services[every.names[0]])
    return routed(request, await anyio.to_thread.run_sync(every.for_game, game))


Service = Annotated[MemoryService, Depends(service)]


async def caller(request: Request, every: AllTargets,
                 credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> auth.Principal:
    """The principal of the request's ``Authorization: Bearer`` credential (a player token is checked in the thread
    pool: it asks Neo4j). Raises Unauthorized (401) for a header that is not a Bearer credential, or as
    :func:`graphmem.server.auth.resolve`."""
    import anyio.to_thread

    if credentials is None:
        if request.headers.get("authorization", "").strip():
            raise Unauthorized(auth.MALFORMED)
        return auth.resolve(every, None)
    if auth.is_engine_key(every, credentials.credentials):
        return auth.Engine()
    return await anyio.to_thread.run_sync(auth.resolve, every, credentials.credentials)


Caller = Annotated[auth.Principal, Depends(caller)]


async def engine(principal: Caller) -> None:
    """Return for the engine; Forbidden (403) for a player token."""
    auth.require_engine(principal)


EngineOnly = Depends(engine)


async def player_name(game: str, player: str, principal: Caller) -> str:
    """The route's player as stored (NFC), once the caller may reach that player's memory (403 otherwise)."""
    return auth.require_player(principal, game, player)


PlayerName = Annotated[str, Depends(player_name)]


REPLAYED = "Idempotent-Replayed"
"""The header of an answer to a request sent with an Idempotency-Key: "true" when it is the first request's answer
given again (nothing was written), "false" when this request carried the write out."""


class Retry:
    """A write route's request with its ``Idempotency-Key`` (docs/service.md#retries): ``retry(operation,
    status)`` runs ``operation()`` (which returns the route's answer model) once per key of the caller and answers
    with it, or gives the first request's answer again; without a key it runs it and answers with it."""

    def __init__(self, memory: MemoryService, key: str | None, caller: str, request_sha256: str, game: str) -> None:
        self.memory = memory
        self.key = key
        self.caller = caller
        self.request_sha256 = request_sha256
        self.game = game

    def __call__(self, operation: Callable[[], BaseModel], status: int = 200) -> Any:
        if self.key is None:
            # the answer as it would be stored for a key, rendered here: returned as a model, FastAPI would validate
            # it again against the route's response model in another hop to its thread pool
            return JsonAnswer(operation().model_dump(mode="json"), status)

        def carried() -> Answer:
            return Answer(status, operation().model_dump(mode="json"))

        answer, replayed = self.memory.once(self.caller, self.key, self.request_sha256, self.game, carried)
        return JsonAnswer(answer.body, answer.status, headers={REPLAYED: "true" if replayed else "false"})


def _takes(value: object, kind: TypeAdapter[str]) -> TypeGuard[str]:
    """Whether ``value`` is a ``kind`` graphmem takes (docs/log-format.md): a game id a route may write to, a series
    name."""
    try:
        kind.validate_python(value)
    except ValidationError:
        return False
    return True


_GAME_ID: TypeAdapter[str] = TypeAdapter(GameId)
_SERIES_NAME: TypeAdapter[str] = TypeAdapter(SeriesName)


async def retry(request: Request, every: AllTargets, principal: Caller, key: Annotated[str | None, Header(
        alias="Idempotency-Key", min_length=1, max_length=255, pattern=r"^[\x21-\x7e]+$",
        description="A key of your choice (1-255 visible ASCII characters, e.g. a UUID) naming this write: sent "
                    "again with the same request, it gives the first answer again and writes nothing (kept a day)"
)] = None) -> Retry:
    """The request's :class:`Retry`: its key, its caller ("engine" or the player's uid), the SHA-256 of its method,
    path and body, and its game (the route's, or the created game's), whose target keeps the key."""
    import anyio.to_thread

    first = every.services[every.names[0]]
    if key is None:
        return Retry(first, None, "", "", "")
    data = await request.body()
    parsed = _parsed(data)
    digest = request_sha256(request.method, request.url.path, data, parsed)
    game = request.path_params.get("game")
    # the game whose target keeps the key: the route's, or the one a header creates (placed by its id and series)
    placed = (game, None) if game is not None and _takes(game, _GAME_ID) else placement(parsed) if game is None else None
    if placed is None:  # the route refuses the request as it does without a key, and nothing is written: no key is
        return Retry(first, None, "", "", "")  # kept for it (a key row could not even hold such an id)
    memory = await anyio.to_thread.run_sync(every.for_game, placed[0]) if game is not None else \
        await anyio.to_thread.run_sync(every.for_new_game, *placed)
    caller = player_uid(principal.game, principal.player) if isinstance(principal, auth.Agent) else "engine"
    return Retry(memory, key, caller, digest, placed[0])


_UNREADABLE = object()
"""What :func:`_parsed` gives for a body that is not JSON."""


def _parsed(data: bytes) -> Any:
    """The JSON value of a body (UTF-8, decoded strictly as the routes decode it), or :data:`_UNREADABLE`."""
    if not data:
        return _UNREADABLE
    try:
        return json.loads(data.decode(json.detect_encoding(data)))
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return _UNREADABLE


def request_sha256(method: str, path: str, data: bytes, parsed: Any = _UNREADABLE) -> str:
    """The SHA-256 (hex) that names a keyed request: its method, path and body, the body as the JSON it holds in one
    canonical form (object keys sorted, no whitespace, non-ASCII as ``\\u`` escapes), so that the same JSON sent
    again with other whitespace or another key order is the same request, as payment APIs compare a retry's
    parameters and not its bytes (Stripe; draft-ietf-httpapi-idempotency-key-header leaves the fingerprint to the
    server). A body that is not JSON (the route refuses it) counts byte for byte; ``parsed`` is its JSON value when
    the caller has it already."""
    value = _parsed(data) if parsed is _UNREADABLE else parsed
    canonical = data if value is _UNREADABLE else json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    return hashlib.sha256(f"{method} {path}\n".encode() + canonical).hexdigest()


def takes_idempotency_key(route: APIRoute) -> bool:
    """Whether ``route`` carries its write out once per ``Idempotency-Key`` (it depends on :func:`retry`)."""
    def calls(dependant: Dependant) -> Iterator[Any]:
        yield dependant.call
        for sub in dependant.dependencies:
            yield from calls(sub)

    return any(call is retry for call in calls(route.dependant))


def placement(header: Any) -> tuple[str, str | None] | None:
    """(game id, series name or None) of a game's header (a JSON object), by which the game is placed on a target
    (:meth:`graphmem.targets.Targets.for_new_game`); None when the header is no object, or its game id or series
    name is not one graphmem takes (docs/log-format.md): the header's own check refuses it (422 naming the field),
    and placing it first would ask every target about a name Neo4j cannot hold (a lone surrogate: 500) or wait for
    a target that is down (503), and remember a place for a game that never was."""
    if not isinstance(header, dict) or not _takes(game := header.get("game"), _GAME_ID):
        return None
    series = header.get("series")
    if series is None:
        return game, None
    name = series.get("name") if isinstance(series, dict) else None
    return (game, name) if _takes(name, _SERIES_NAME) else None



Once = Annotated[Retry, Depends(retry)]
