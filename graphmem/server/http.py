"""The HTTP face of the service: one FastAPI application with the JSON API for engines and analysts, the MCP
endpoint at ``/mcp`` for agents, ``/health`` and ``/ready`` (OpenAPI at ``/docs``). docs/service.md describes the
routes, the token flow and the errors; :mod:`graphmem.server.errors` the error body.

Every route is a plain function run in the server's thread pool over one :class:`~graphmem.service.MemoryService`
per process (its driver is thread-safe, its embedder batches concurrent topics). A process keeps no game state
between requests (:mod:`graphmem.ingest.live`): any number of processes serve one Neo4j.
"""



import contextlib
import dataclasses
import logging
import shutil
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from neo4j.exceptions import DriverError, Neo4jError
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from graphmem.errors import GraphmemError
from graphmem.server import auth
from graphmem.server.errors import MalformedRequest, answer, body
from graphmem.server.limits import BodyLimit, ResponseTracker
from graphmem.service import MemoryService

log = logging.getLogger(__name__)

LOOPBACK = ("127.0.0.1", "localhost", "::1")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EventBatch(_Body):
    """A batch of canonical events (docs/log-format.md) and, optionally, how many events the engine sent before it."""

    events: list[dict[str, Any]] = Field(description="canonical event objects, in order")
    after: int | None = Field(None, ge=0, description="events sent before this batch (a concurrency check)")


class PhaseRequest(_Body):
    """Open the next phase of a live game (day and name), or decay a game to phase ``to``."""

    day: int | None = Field(None, ge=0)
    name: str | None = None
    to: int | None = Field(None, ge=0)
    after: int | None = Field(None, ge=0)


class EndRequest(_Body):
    """The end event of a live game."""

    winner: str
    text: str | None = None
    after: int | None = Field(None, ge=0)


class RolesRequest(_Body):
    """Roles announced after the game was created: {player: role}, before the first event."""

    roles: dict[str, str]


class RecallRequest(_Body):
    """A recall: the topic of the conversation, who takes part, at most k memories."""

    topic: str | None = None
    participants: list[str] = Field(default_factory=list)
    k: int | None = Field(None, ge=1, le=100)


class ThoughtRequest(_Body):
    """A working-memory item (docs/model.md#working-memory)."""

    text: str
    priority: float = Field(0.5, ge=0.0, le=1.0)
    persistence: int = Field(2, ge=0)


class QueryRequest(_Body):
    """The parameters of an analysis query, as text (typed by the query's header)."""

    params: dict[str, str | int | float | bool] = Field(default_factory=dict)


class _State:
    """What the app holds: the service, and whether the model is loaded."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service
        self.model_seconds: float | None = None
        self.model_error: str | None = None


def _warm(state: _State) -> None:
    started = time.perf_counter()
    try:
        state.service.embedder.encode_one("warm up")
        state.model_seconds = time.perf_counter() - started
        log.info("embedding model loaded in %.1f s", state.model_seconds)
    except Exception as e:  # reported by /ready
        state.model_error = str(e).splitlines()[0]
        log.error("the embedding model could not be loaded: %s", state.model_error)


class _McpGate:
    """In front of /mcp: a request without credential on a server with an engine key gets 401 at once (tools then
    check the credential itself on every call)."""

    def __init__(self, app: ASGIApp, service: MemoryService) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].rstrip("/") == "/mcp":
            headers = dict(scope.get("headers") or [])
            if self.service.settings.engine_key and not headers.get(b"authorization"):
                response = JSONResponse(body("unauthorized", "this server needs a credential: 'Authorization: "
                                                             "Bearer <player token or engine key>'"), 401)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(service: MemoryService, *, warm: bool = True) -> ASGIApp:
    """The ASGI application over ``service`` (whose settings give the engine key, the body limit and the host).

    warm : load the embedding model in the background at start (``/ready`` answers 200 once it is loaded and
    Neo4j answers).
    """
    from mcp.server.transport_security import TransportSecuritySettings

    from graphmem.server.mcp import build_mcp

    settings = service.settings
    state = _State(service)
    mcp = build_mcp(service)
    loopback = settings.server_host in LOOPBACK
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=loopback,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"] if loopback else [],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"] if loopback else [])
    mcp_app = mcp.streamable_http_app(streamable_http_path="/mcp", stateless_http=True, json_response=True,
                                      max_request_body_size=settings.max_body_bytes, transport_security=security,
                                      host=settings.server_host)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if warm:
            threading.Thread(target=_warm, args=(state,), name="graphmem-warm-up", daemon=True).start()
        async with mcp.session_manager.run():
            yield

    app = FastAPI(title="graphmem", version=_version(), lifespan=lifespan,
                  description="Fallible, human-like memory for the players of social deduction games: the JSON API "
                              "for engines and analysts; agents use MCP at /mcp. See docs/service.md.")

    async def _known(request: Request, exc: Exception) -> JSONResponse:
        status, payload = answer(exc, settings.uri)
        return JSONResponse(payload, status)

    for kind in (GraphmemError, Neo4jError, DriverError, OSError):
        app.add_exception_handler(kind, _known)

    @app.exception_handler(StarletteHTTPException)
    async def _routing(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # an unknown route: the same JSON body as every other error, not Starlette's plain text
        if exc.status_code == 404:
            reason = f"no such route: {request.method} {request.url.path} (the API is listed at /docs)"
            return JSONResponse(body("not_found", reason), 404)
        return JSONResponse(body("http_error", str(exc.detail)), exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {}
        if first.get("type") == "json_invalid":
            ctx = first.get("ctx") or {}
            return JSONResponse(body("malformed_json", f"the body is not valid JSON: {ctx.get('error', 'invalid')}"),
                                400)
        loc = [str(p) for p in first.get("loc", ()) if p != "body"]
        index = next((int(p) for p in loc if p.isdigit()), None)
        return JSONResponse(body("invalid_request", f"{'.'.join(loc) or 'body'}: {first.get('msg', 'invalid')}",
                                 field=".".join(loc) or None, index=index), 422)

    def caller(authorization: Annotated[str | None, Header()] = None) -> auth.Principal:
        return auth.resolve(service, auth.bearer(authorization))

    Caller = Annotated[auth.Principal, Depends(caller)]

    def engine(principal: Caller) -> None:
        auth.require_engine(principal, "this operation")

    Engine = Depends(engine)

    # -- health -------------------------------------------------------------------------------------------------

    @app.get("/health", tags=["health"])
    def health() -> dict[str, Any]:
        """The process answers (it says nothing of Neo4j: see /ready)."""
        return {"status": "ok", "engine_key": settings.engine_key is not None, "host": settings.server_host}

    @app.get("/ready", tags=["health"])
    def ready() -> JSONResponse:
        """200 when Neo4j answers and the embedding model is loaded; 503 naming what is not ready."""
        problems = []
        if state.model_error:
            problems.append(f"the embedding model could not be loaded: {state.model_error}")
        elif state.model_seconds is None:
            problems.append("the embedding model is loading")
        try:
            with service.driver.session(database=service.database) as session:  # one try, no retries
                version = str(session.run("CALL dbms.components() YIELD versions RETURN versions[0] AS v")
                              .single(strict=True)["v"])
        except Exception as e:
            version = None
            problems.append(answer(e, settings.uri)[1]["reason"])
        payload = {"ready": not problems, "neo4j": settings.uri, "neo4j_version": version,
                   "model": service.embedder.model_name, "model_seconds": state.model_seconds,
                   "reason": "; ".join(problems) or None}
        return JSONResponse(payload, 200 if not problems else 503)

    # -- games (engine) -----------------------------------------------------------------------------------------

    @app.get("/games", tags=["games"], dependencies=[Engine])
    def games() -> list[dict[str, Any]]:
        """Every stored game."""
        return service.games()

    @app.post("/games", tags=["games"], status_code=201, dependencies=[Engine])
    def create_game(header: dict[str, Any]) -> dict[str, Any]:
        """Create a live game from its canonical header (docs/log-format.md; a player may come without role). An optional
        ``history`` (the events sent so far) reopens a stored game: those stored write nothing."""
        header = dict(header)
        history = header.pop("history", [])
        if not isinstance(history, list):
            raise MalformedRequest("history must be a list of events", "history")
        report = service.start_game(header, history)
        return {"game": header.get("game"), **report.to_json()}

    @app.get("/games/{game}", tags=["games"], dependencies=[Engine])
    def game_stats(game: str) -> dict[str, Any]:
        """Counts of a stored game (nodes, relationships, memories by source and state)."""
        return {"game": game, **service.stats(game)}

    @app.delete("/games/{game}", tags=["games"], dependencies=[Engine])
    def delete_game(game: str) -> dict[str, Any]:
        """Delete a game and everything of it (its player tokens stop working)."""
        return {"game": game, "deleted": service.delete(game)}

    @app.put("/games/{game}/roles", tags=["games"], dependencies=[Engine])
    def set_roles(game: str, request: RolesRequest) -> dict[str, Any]:
        """Set players' roles before the game's first event."""
        service.set_roles(game, request.roles)
        return {"game": game, "roles": request.roles}

    @app.post("/games/{game}/events", tags=["games"], dependencies=[Engine])
    def add_events(game: str, batch: EventBatch) -> dict[str, Any]:
        """Add a batch of events, validated whole (422 names "event N of this batch", nothing written)."""
        return {"game": game, **service.add_events(game, batch.events, after=batch.after).to_json()}

    @app.post("/games/{game}/phase", tags=["games"], dependencies=[Engine])
    def advance_phase(game: str, request: PhaseRequest) -> dict[str, Any]:
        """Open the next phase of a live game (day, name) and decay to it; or decay a finished game to ``to``."""
        report = service.advance_phase(game, request.to, day=request.day, name=request.name, after=request.after)
        return {"game": game, "from_phase": report.from_phase, "to_phase": report.to_phase,
                "memories": report.memories, "states": dict(report.states)}

    @app.post("/games/{game}/end", tags=["games"], dependencies=[Engine])
    def end_game(game: str, request: EndRequest) -> dict[str, Any]:
        """The end event: the game is complete; player tokens minted during it stop working."""
        return {"game": game, **service.end_game(game, request.winner, text=request.text,
                                                 after=request.after).to_json()}

    @app.post("/ingest", tags=["games"], dependencies=[Engine])
    async def ingest(request: Request, format: str = "auto", skip_invalid: bool = False) -> dict[str, Any]:
        """Ingest an uploaded game log: a canonical JSONL body, or the files of an importer's format as
        multipart/form-data (e.g. a Traitors game's plomp.json and result.json with ``format=traitors-plomp``)."""
        import anyio.to_thread

        folder = Path(tempfile.mkdtemp(prefix="graphmem-upload-"))
        try:
            kind = request.headers.get("content-type", "")
            if kind.startswith("multipart/form-data"):
                form = await request.form()
                target = folder / "game"  # the files of one game, as an importer reads its folder
                target.mkdir()
                names = 0
                for _, value in form.multi_items():
                    if not isinstance(value, str) and value.filename:
                        (target / Path(value.filename).name).write_bytes(await value.read())
                        names += 1
                if not names:
                    raise MalformedRequest("a multipart upload needs at least one file")
            else:
                data = await request.body()
                if not data.strip():
                    raise MalformedRequest("the body is empty: send a canonical JSONL game log")
                target = folder / "upload.jsonl"
                target.write_bytes(data)
            summary = await anyio.to_thread.run_sync(
                lambda: service.ingest(target, fmt=format, skip_invalid=skip_invalid))
            return dataclasses.asdict(summary)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    # -- jobs, queries and pictures (engine) --------------------------------------------------------------------

    @app.post("/games/{game}/consolidate", tags=["jobs"], dependencies=[Engine])
    def consolidate(game: str, player: str | None = None, dry_run: bool = False) -> dict[str, Any]:
        """Consolidate similar memories into summaries (docs/jobs.md#consolidation)."""
        return _plain(service.consolidate(game, player, dry_run=dry_run))

    @app.post("/games/{game}/contradictions", tags=["jobs"], dependencies=[Engine])
    def contradictions(game: str, player: str | None = None, dry_run: bool = False) -> dict[str, Any]:
        """Detect and store contradictions between memories (docs/jobs.md#contradictions)."""
        return _plain(service.contradictions(game, player, dry_run=dry_run))

    @app.get("/queries", tags=["queries"], dependencies=[Engine])
    def queries() -> list[dict[str, Any]]:
        """The analysis queries: name, purpose, parameters, columns."""
        from graphmem.analysis import analysis_query, analysis_query_names

        out = []
        for name in analysis_query_names():
            q = analysis_query(name)
            out.append({"name": name, "purpose": q.purpose, "returns": list(q.returns),
                        "params": [{"name": p.name, "type": p.type, "required": p.required, "doc": p.doc}
                                   for p in q.params]})
        return out

    @app.post("/queries/{name}", tags=["queries"], dependencies=[Engine])
    def run_query(name: str, request: QueryRequest) -> dict[str, Any]:
        """Run an analysis query read-only: {columns, rows}."""
        result = service.query(name, {k: str(v).lower() if isinstance(v, bool) else str(v)
                                      for k, v in request.params.items()})
        return {"query": name, "columns": list(result.columns), "rows": result.rows}

    @app.get("/games/{game}/told", tags=["queries"], dependencies=[Engine])
    def told(game: str, format: Literal["html", "graphml"] = "html", day: int | None = None) -> Response:
        """Who told whom: a self-contained interactive HTML page, or GraphML (for Gephi, networkx)."""
        graph = service.told_graph(game, day)
        if format == "html":
            from graphmem.viz.html import render_html

            return Response(render_html(graph), media_type="text/html; charset=utf-8")
        from graphmem.viz.export import write_graph

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "told.graphml"
            write_graph(graph, path, "graphml")
            return Response(path.read_bytes(), media_type="application/graphml+xml")

    # -- player tokens (engine) ---------------------------------------------------------------------------------

    @app.post("/games/{game}/players/{player}/tokens", tags=["tokens"], status_code=201, dependencies=[Engine])
    def mint_token(game: str, player: str) -> dict[str, Any]:
        """A new player token: it grants that player's agent operations only. Shown once; keep it."""
        return {"game": game, "player": player, "token": service.mint_token(game, player)}

    @app.delete("/games/{game}/tokens", tags=["tokens"], dependencies=[Engine])
    def revoke_tokens(game: str, player: str | None = None) -> dict[str, Any]:
        """Revoke the game's player tokens (one player's with ``player``)."""
        return {"game": game, "player": player, "revoked": service.revoke_tokens(game, player)}

    # -- agent operations (the player's token, or the engine key) -----------------------------------------------

    @app.post("/games/{game}/players/{player}/recall", tags=["agent"])
    def recall(game: str, player: str, request: RecallRequest, principal: Caller) -> dict[str, Any]:
        """What the player remembers (docs/model.md#recall-and-reconsolidation): the prompt block (``prompt``) and its
        JSON (for a player token without the ground truth of each memory: true day, fabricated and misattributed flags,
        changes)."""
        auth.require_player(principal, game, player)
        result = service.recall(game, player, request.topic, participants=request.participants, k=request.k)
        return result.agent_dict() if isinstance(principal, auth.Agent) else result.as_dict()

    @app.post("/games/{game}/players/{player}/thoughts", tags=["agent"], status_code=201)
    def push_thought(game: str, player: str, request: ThoughtRequest, principal: Caller) -> dict[str, Any]:
        """Push a thought into the player's working memory (docs/model.md#working-memory)."""
        auth.require_player(principal, game, player)
        return {"thought": service.push_thought(game, player, request.text, priority=request.priority,
                                                persistence=request.persistence, trigger="agent")}

    @app.get("/games/{game}/players/{player}/conflicts", tags=["agent"])
    def conflicts(game: str, player: str, principal: Caller) -> dict[str, Any]:
        """The open contradictions between the player's own memories (docs/jobs.md#contradictions)."""
        auth.require_player(principal, game, player)
        return {"game": game, "player": player, "conflicts": service.conflicts(game, player)}

    # the MCP app is mounted at the root (its route is /mcp), so it answers every unknown route: with our JSON too
    mcp_app.add_exception_handler(StarletteHTTPException, _routing)  # type: ignore[arg-type]
    app.mount("/", mcp_app)
    return BodyLimit(_Unexpected(_McpGate(app, service), settings.uri), settings.max_body_bytes)


class _Unexpected:
    """Any other exception of a route becomes a 500 JSON answer (logged with its traceback), never a traceback to
    the client or a dropped connection."""

    def __init__(self, app: ASGIApp, uri: str) -> None:
        self.app = app
        self.uri = uri

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        tracked = ResponseTracker(send)
        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:
            if scope["type"] != "http" or tracked.started:
                raise
            status, payload = answer(exc, self.uri)
            await JSONResponse(payload, status)(scope, receive, send)


def _plain(report: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(report) and not isinstance(report, type):
        return {k: v for k, v in dataclasses.asdict(report).items() if not k.startswith("_")}
    return dict(report)


def _version() -> str:
    from graphmem import __version__

    return __version__


__all__ = ["create_app"]
