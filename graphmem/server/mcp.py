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
after)`` (:meth:`graphmem.service.MemoryService.add_events`, :meth:`~graphmem.service.MemoryService.advance_phase`).

Over HTTP (``/mcp``, streamable HTTP, stateless: any server process answers any call) the caller is the
``Authorization: Bearer`` credential of each request; over stdio (``graphmem mcp``) it is the token or key the
process was started with. A refused call returns an error result whose text gives the HTTP status it would have
had ("Error executing tool recall: 403 forbidden: ...").
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from graphmem.errors import Forbidden
from graphmem.model.groups import RECALL_K_MAX
from graphmem.server import auth
from graphmem.server.errors import answer
from graphmem.server.models import Count, Integer
from graphmem.targets import Targets

INSTRUCTIONS = (
    "graphmem is your memory of the game you are playing: fallible and human-like. Call recall before you speak or "
    "vote (topic: what the conversation is about; participants: who you are talking with); treat [FUZZY] and "
    "[VAGUE] memories with the uncertainty they carry. remember_thought keeps something in mind for the next "
    "phases; my_conflicts lists what you remember inconsistently.")


def _fail(targets: Targets, game: str | None, exc: BaseException) -> ToolError:
    uri = targets.settings.uri
    if game is not None and targets.single is None:
        exc = targets.moved(game, exc)  # a place kept from before a move is dropped
        try:
            uri = targets.uri(targets.target_of(game))
        except Exception:  # where the game lives is not known now: the first target's URI
            pass
    status, payload = answer(exc, uri)
    return ToolError(f"{status} {payload['error']}: {payload['reason']}")


def build_mcp(targets: Targets, *, stdio: bool = False, credential: str | None = None) -> MCPServer[Any]:
    """The MCP server over ``targets`` (each call on the service of its game's target).

    stdio : every call comes from the one client of the process, whose ``credential`` (a player token or the engine
    key, or None) was given at start; otherwise each HTTP request's ``Authorization`` header is the caller. Either
    way the credential is checked on every call (a token stops working when its game ends).
    """
    server: MCPServer[Any] = MCPServer("graphmem", instructions=INSTRUCTIONS, version=_version())

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
    def recall(ctx: Context[Any], topic: str | None = None, participants: list[str] | None = None,
               k: Annotated[int, Field(ge=1, le=RECALL_K_MAX)] | None = None, dry_run: bool = False,
               seed: Integer | None = None, at: Count | None = None,
               game: str | None = None, player: str | None = None) -> CallToolResult:
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
    def remember_thought(ctx: Context[Any], text: str, priority: float = 0.5,
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
    def add_events(ctx: Context[Any], game: str, events: list[dict[str, Any]],
                   after: Count | None = None) -> dict[str, Any]:
        """Engine only: add a batch of canonical events (docs/log-format.md) to a live game, validated whole; `after` is the
        number of events sent before this batch."""
        try:
            auth.require_engine(caller(ctx), "adding events")
            return targets.for_game(game).add_events(game, events, after=after).to_json()
        except Exception as exc:
            raise _fail(targets, game, exc) from exc

    @server.tool(annotations=ToolAnnotations(title="Advance the phase (engine)", read_only_hint=False,
                                             destructive_hint=False, idempotent_hint=False, open_world_hint=False))
    def advance_phase(ctx: Context[Any], game: str, day: int | None = None, name: str | None = None,
                      after: Count | None = None) -> dict[str, Any]:
        """Engine only: open the next phase of a live game (`day`, `name`: the phase event) and let memories fade
        to it; without them, bring the game's decay up to its current phase."""
        try:
            auth.require_engine(caller(ctx), "advancing the phase")
            report = targets.for_game(game).advance_phase(game, day=day, name=name, after=after)
        except Exception as exc:
            raise _fail(targets, game, exc) from exc
        return {"game": report.game, "from_phase": report.from_phase, "to_phase": report.to_phase,
                "memories": report.memories, "states": dict(report.states)}

    return server


def _version() -> str:
    from graphmem import __version__

    return __version__

