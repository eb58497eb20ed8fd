"""The MCP face of the service: the tools an LLM agent (and an engine) calls, on the official ``mcp`` SDK (2.x,
``mcp.server.mcpserver.MCPServer``; pinned in pyproject.toml).

Agent tools, scoped to the player of the caller's player token (they take no game or player: an agent cannot name
another player):

- ``recall(topic, participants, k, dry_run, seed)``: what the player remembers
  (docs/model.md#recall-and-reconsolidation), as the docs/prompt.md prompt block (the text content) and its JSON (the
  structured content). Not read-only: recalling rehearses and reconstructs the recalled memories (reconsolidation),
  which is the point of the model; ``dry_run`` looks without it. With the engine key it also takes ``game``,
  ``player`` and ``at`` (an earlier phase), as the HTTP route does.
- ``remember_thought(text, priority, persistence)``: push an item into the player's working memory
(docs/model.md#working-memory).
- ``my_conflicts()``: the open contradictions between the player's own memories (docs/jobs.md#contradictions), each in
the player's words
  (``said``); read-only.

Engine tools, refused to a player token: ``add_events(game, events, after)`` and ``advance_phase(game, day, name,
after, to)`` (:meth:`graphmem.service.MemoryService.add_events`, :meth:`~graphmem.service.MemoryService.advance_phase`),
the arguments of ``POST /games/{game}/events`` and ``POST /games/{game}/phase``.

Over HTTP (``/mcp``, streamable HTTP, stateless: any server process answers any call) the caller is the
``Authorization: Bearer`` credential of each request; over stdio (``graphmem mcp``) it is the token or key the
process was started with.

**Refusals.** A refused call answers what the HTTP route answers for the same mistake: an error result
(``isError``) whose text is the status, the error kind and the reason ("422 invalid_request: k: Input should be
less than or equal to 100") and whose structured content is the route's JSON error body with its ``status``
(docs/service.md#mcp). Arguments are validated first by graphmem's own model of each tool
(:data:`graphmem.server.models.TOOL_ARGUMENTS`, the HTTP bodies: strict types, unknown arguments refused), then the
tool's own refusals (403, 404, 409, 503, ...) go through :func:`graphmem.server.errors.answer`, as the routes' do.
The hook is :meth:`GraphmemMCP.call_tool`, the SDK's public ``MCPServer.call_tool`` (which its ``tools/call``
handler calls) overridden: the SDK would otherwise validate the arguments with its own lenient model and prefix
every refusal with "Error executing tool recall: ". Its other extension points fit worse: a middleware that answers
in the handler's place must build the protocol version's wire envelope itself, and an ``Extension``'s
``tools/call`` interceptor would advertise a protocol extension to every client and still not see what a tool
raised (the handler has made it text by then).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ValidationError

from graphmem.errors import Forbidden, closest, did_you_mean
from graphmem.server import auth
from graphmem.server.errors import answer, body, invalid_request
from graphmem.server.models import TOOL_ARGUMENTS, Count, Integer, Priority, RecallK, Text
from graphmem.targets import Targets

INSTRUCTIONS = (
    "graphmem is your memory of the game you are playing: fallible and human-like. Call recall before you speak or "
    "vote (topic: what the conversation is about; participants: who you are talking with); treat [FUZZY] and "
    "[VAGUE] memories with the uncertainty they carry. remember_thought keeps something in mind for the next "
    "phases; my_conflicts lists what you remember inconsistently.")


def refusal(status: int, payload: dict[str, Any]) -> CallToolResult:
    """A refused tool call as MCP answers it: an error result whose text is ``"STATUS ERROR: REASON"`` (what an agent
    reads) and whose structured content is the HTTP API's error body (:func:`graphmem.server.errors.body`) with its
    ``status`` (what a program reads)."""
    return CallToolResult(content=[TextContent(type="text", text=f"{status} {payload['error']}: {payload['reason']}")],
                          structured_content={"status": status, **payload}, is_error=True)


class Refused(ToolError):
    """A tool's refusal, raised from its body: ``result`` is its :func:`refusal`, which :meth:`GraphmemMCP.call_tool`
    answers (the SDK hands it over as the ``__cause__`` of its own ToolError)."""

    def __init__(self, result: CallToolResult) -> None:
        text = result.content[0]
        super().__init__(text.text if isinstance(text, TextContent) else "refused")
        self.result = result


def _fail(targets: Targets, game: str | None, exc: BaseException) -> Refused:
    uri = targets.settings.uri
    if game is not None and targets.single is None:
        exc = targets.moved(game, exc)  # a place kept from before a move is dropped
        try:
            uri = targets.uri(targets.target_of(game))
        except Exception:  # where the game lives is not known now: the first target's URI
            pass
    return Refused(refusal(*answer(exc, uri)))


class GraphmemMCP(MCPServer[Any]):
    """The SDK's MCP server, whose tool calls answer graphmem's refusals (the module docstring says why here)."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> CallToolResult | InputRequiredResult:
        """Call tool ``name``: first its arguments are validated by its model of
        :data:`graphmem.server.models.TOOL_ARGUMENTS` (422 ``invalid_request`` naming the field, as the HTTP route;
        an unknown tool is 404 ``not_found``), then the SDK runs it; a :class:`Refused` it raised is its answer."""
        model = TOOL_ARGUMENTS.get(name)
        if model is None:
            hint = did_you_mean(closest(name, TOOL_ARGUMENTS), quote=True)
            reason = f"no tool '{name}'{f' ({hint})' if hint else ''}; tools: {', '.join(TOOL_ARGUMENTS)}"
            return refusal(404, body("not_found", reason, field="name"))
        try:
            model.model_validate(_json_in_text(model, arguments))
        except ValidationError as exc:
            return refusal(422, invalid_request(exc.errors()))
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, Refused):
                return exc.__cause__.result
            raise


def _json_in_text(model: type[BaseModel], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """``arguments`` as the SDK hands them to a tool: a string sent for a field that is not a string alone, holding
    a JSON array, object or null, is that JSON (``"participants": "[\\"Ann\\"]"`` is ``["Ann"]``: Claude Desktop
    sends lists so). The rule of ``mcp``'s ``FuncMetadata.pre_parse_json``, applied here so that graphmem's model
    validates what the tool will get."""
    fields = model.model_fields
    parsed = dict(arguments)
    for key, value in arguments.items():
        if isinstance(value, str) and key in fields and fields[key].annotation is not str:
            try:
                value = json.loads(value)
            except (ValueError, RecursionError):
                continue
            if not isinstance(value, str | int | float):
                parsed[key] = value
    return parsed


def build_mcp(targets: Targets, *, stdio: bool = False, credential: str | None = None) -> MCPServer[Any]:
    """The MCP server over ``targets`` (each call on the service of its game's target).

    stdio : every call comes from the one client of the process, whose ``credential`` (a player token or the engine
    key, or None) was given at start; otherwise each HTTP request's ``Authorization`` header is the caller. Either
    way the credential is checked on every call (a token stops working when its game ends).
    """
    server = GraphmemMCP("graphmem", instructions=INSTRUCTIONS, version=_version())

    def caller(ctx: Context[Any]) -> auth.Principal:
        if stdio:
            return auth.resolve(targets, credential)
        headers = ctx.headers or {}
        return auth.resolve(targets, auth.bearer(headers.get("authorization")))

    def agent(ctx: Context[Any]) -> auth.Agent:
        principal = caller(ctx)
        if not isinstance(principal, auth.Agent):
            raise Forbidden("this tool reads a player's memory: call it with that player's token (the engine key "
                            "names no player; the HTTP API takes game and player)")
        return principal

    @server.tool(annotations=ToolAnnotations(title="Recall what you remember", read_only_hint=False,
                                             destructive_hint=False, idempotent_hint=False, open_world_hint=False))
    def recall(ctx: Context[Any], topic: Text | None = None, participants: list[Text] | None = None,
               k: RecallK | None = None, dry_run: bool = False, seed: Integer | None = None, at: Count | None = None,
               game: Text | None = None, player: Text | None = None) -> CallToolResult:
        """What you remember for a conversation about `topic` with `participants` (the players you are talking
        with), at most `k` memories (default 10): the memory block to read before you speak or vote. Recalling
        strengthens and subtly changes what you recall, as human memory does; `dry_run` looks without that, `seed`
        fixes a dry run's random choices. Engine key only: `game` and `player` name whose memory, `at` an earlier
        phase to recall as at, `seed` on a recall that writes."""
        who: auth.Agent | None = None
        try:
            principal = caller(ctx)
            if isinstance(principal, auth.Agent):
                who = auth.Agent(game or principal.game, player or principal.player)
            elif game is None or player is None:
                raise Forbidden("this tool reads a player's memory: call it with that player's token, or name "
                                "game and player with the engine key")
            else:
                who = auth.Agent(game, player)
            name = auth.require_player(principal, who.game, who.player)
            data = auth.recall_for(targets.for_game(who.game), principal, who.game, name, topic, participants or [], k=k,
                                   dry_run=dry_run, seed=seed, at=at)
        except Exception as exc:
            raise _fail(targets, who.game if who else None, exc) from exc
        return CallToolResult(content=[TextContent(type="text", text=data["prompt"])], structured_content=data)

    @server.tool(annotations=ToolAnnotations(title="Keep a thought in mind", read_only_hint=False,
                                             destructive_hint=False, idempotent_hint=False, open_world_hint=False))
    def remember_thought(ctx: Context[Any], text: Text, priority: Priority = 0.5,
                         persistence: Count = 2) -> dict[str, Any]:
        """Keep `text` in your working memory for `persistence` phases (priority 0-1: when you hold too many
        thoughts, the least important goes)."""
        who: auth.Agent | None = None
        try:
            who = agent(ctx)
            uid = targets.for_game(who.game).push_thought(who.game, who.player, text, priority=priority,
                                                          persistence=persistence, trigger="agent")
        except Exception as exc:
            raise _fail(targets, who.game if who else None, exc) from exc
        return {"thought": uid}

    @server.tool(annotations=ToolAnnotations(title="What you remember inconsistently", read_only_hint=True,
                                             open_world_hint=False))
    def my_conflicts(ctx: Context[Any]) -> dict[str, Any]:
        """The open contradictions between your own memories (a lie you caught, someone's stance reversed, two
        people telling you different things about the same player), most critical first, each in your words
        (`said`) with the memories it links."""
        who: auth.Agent | None = None
        try:
            who = agent(ctx)
            return {"conflicts": targets.for_game(who.game).conflicts(who.game, who.player)}
        except Exception as exc:
            raise _fail(targets, who.game if who else None, exc) from exc

    @server.tool(annotations=ToolAnnotations(title="Add game events (engine)", read_only_hint=False,
                                             destructive_hint=False, idempotent_hint=True, open_world_hint=False))
    def add_events(ctx: Context[Any], game: Text, events: list[dict[str, Any]],
                   after: Count | None = None) -> dict[str, Any]:
        """Engine only: add a batch of canonical events (docs/log-format.md) to a live game, validated whole; `after` is the
        number of events sent before this batch."""
        try:
            auth.require_engine(caller(ctx))
            return targets.for_game(game).add_events(game, events, after=after).to_json()
        except Exception as exc:
            raise _fail(targets, game, exc) from exc

    @server.tool(annotations=ToolAnnotations(title="Advance the phase (engine)", read_only_hint=False,
                                             destructive_hint=False, idempotent_hint=False, open_world_hint=False))
    def advance_phase(ctx: Context[Any], game: Text, day: Count | None = None, name: Text | None = None,
                      after: Count | None = None, to: Count | None = None) -> dict[str, Any]:
        """Engine only: open the next phase of a live game (`day`, `name`: the phase event, `after` the events sent
        before it) and let memories fade to it; without them, let them fade to phase `to` (a live game: up to its
        current phase, the default; a game ingested from a file or ended: any later phase, default one phase on)."""
        try:
            auth.require_engine(caller(ctx))
            report = targets.for_game(game).advance_phase(game, to, day=day, name=name, after=after)
        except Exception as exc:
            raise _fail(targets, game, exc) from exc
        return {"game": report.game, "from_phase": report.from_phase, "to_phase": report.to_phase,
                "memories": report.memories, "states": dict(report.states)}

    return server


def _version() -> str:
    from graphmem import __version__

    return __version__

