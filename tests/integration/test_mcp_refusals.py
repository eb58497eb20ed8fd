"""An MCP tool refuses a bad call with what the HTTP route answers for the same mistake (docs/service.md#mcp): an
error result whose text is "STATUS ERROR: REASON" and whose structured content is the route's error body with its
status, never the SDK's "Error executing tool recall: 1 validation error for recallArguments". Through a real
``graphmem serve`` and the MCP SDK's client over streamable HTTP, against the session's Neo4j."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from graphmem.server.models import TOOL_ARGUMENTS
from tests.integration.server_process import Server
from tests.integration.test_server import live_game, mcp_call, mint

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


def _refused_alike(tool: Any, route: httpx.Response) -> None:
    """``tool`` (a CallToolResult) is the refusal ``route`` (the HTTP answer to the same mistake) is: its status,
    kind, field, index and reason; its text says them in one line."""
    assert route.status_code >= 400, route.text
    payload = route.json()
    assert tool.is_error, tool.content
    refused = tool.structured_content
    assert tool.content[0].text == f"{refused['status']} {refused['error']}: {refused['reason']}"
    assert refused == {"status": route.status_code, **payload}


def test_every_bad_argument_is_refused_as_the_route_refuses_it(server: Server, engine: httpx.Client) -> None:
    game, _ = live_game(engine, 26)
    token = mint(engine, game, "Marcus")
    before = engine.get(f"/games/{game}").json()
    recall, thoughts = f"/games/{game}/players/Marcus/recall", f"/games/{game}/players/Marcus/thoughts"
    with server.client(token) as marcus:
        mistakes: list[tuple[str, dict[str, Any], httpx.Response]] = [  # (tool, arguments, the route's answer)
            ("recall", {"k": 1000}, marcus.post(recall, json={"k": 1000})),  # out of range: the SDK's own message
            ("recall", {"k": "5"}, marcus.post(recall, json={"k": "5"})),  # wrong type: the SDK took "5" for 5
            ("recall", {"dry_run": "no"}, marcus.post(recall, json={"dry_run": "no"})),  # the SDK took it for false
            ("recall", {"kk": 5}, marcus.post(recall, json={"kk": 5})),  # unknown: the SDK ignored it and recalled
            ("remember_thought", {}, marcus.post(thoughts, json={})),  # missing
            ("remember_thought", {"text": "x", "priority": 2}, marcus.post(thoughts, json={"text": "x", "priority": 2})),
            ("remember_thought", {"text": "x", "persistence": 2**63},
             marcus.post(thoughts, json={"text": "x", "persistence": 2**63})),
            # another player's memory
            ("recall", {"player": "Sarah"}, marcus.post(f"/games/{game}/players/Sarah/recall", json={})),
            ("recall", {"topic": "Thomas", "at": 2}, marcus.post(recall, json={"topic": "Thomas", "at": 2})),
        ]
        for name, arguments, route in mistakes:
            _refused_alike(mcp_call(server, token, name, arguments), route)
    hello = {"kind": "say", "speaker": "Marcus", "to": "all", "channel": "public", "text": "Hi."}
    engine_mistakes: list[tuple[str, dict[str, Any], httpx.Response]] = [
        ("recall", {"game": game, "player": "Nobody"}, engine.post(f"/games/{game}/players/Nobody/recall", json={})),
        ("recall", {"game": "no-such-game", "player": "Marcus"},
         engine.post("/games/no-such-game/players/Marcus/recall", json={})),
        ("recall", {"game": game, "player": "Marcus", "at": 2**63 - 1},  # beyond the game's decayed phase
         engine.post(recall, json={"at": 2**63 - 1})),
        ("advance_phase", {"game": game, "day": True, "name": "night"},
         engine.post(f"/games/{game}/phase", json={"day": True, "name": "night"})),
        ("advance_phase", {"game": game, "to": 99},  # a live game fades only to a phase its phase events opened
         engine.post(f"/games/{game}/phase", json={"to": 99})),
        ("add_events", {"game": game, "events": [{"kind": "say", "speaker": "Nobody", "to": "all",
                                                  "channel": "public", "text": "Hi."}], "after": 26},
         engine.post(f"/games/{game}/events", json={"events": [{"kind": "say", "speaker": "Nobody", "to": "all",
                                                               "channel": "public", "text": "Hi."}], "after": 26})),
        ("add_events", {"game": game, "events": [hello], "after": 30},  # a batch that does not follow the stored events
         engine.post(f"/games/{game}/events", json={"events": [hello], "after": 30})),
    ]
    for name, arguments, route in engine_mistakes:
        _refused_alike(mcp_call(server, server.key, name, arguments), route)
    # an engine tool with a player token: the 403 of its route, in the same words (one home: graphmem/server/auth.py)
    with server.client(token) as marcus:
        engine_tools: list[tuple[str, dict[str, Any], httpx.Response]] = [
            ("add_events", {"game": game, "events": []}, marcus.post(f"/games/{game}/events", json={"events": []})),
            ("advance_phase", {"game": game, "day": 2, "name": "night"},
             marcus.post(f"/games/{game}/phase", json={"day": 2, "name": "night"}))]
        for name, arguments, route in engine_tools:
            refused = mcp_call(server, token, name, arguments)
            _refused_alike(refused, route)
            assert refused.structured_content["status"] == 403
            assert refused.structured_content["reason"].endswith("this operation needs the engine key")
    assert engine.get(f"/games/{game}").json() == before  # no refused call wrote anything


def test_an_unknown_tool_is_not_found_and_a_list_sent_as_json_text_is_read(server: Server,
                                                                           engine: httpx.Client) -> None:
    game, _ = live_game(engine, 26)
    token = mint(engine, game, "Marcus")
    typo = mcp_call(server, token, "recal", {"topic": "Thomas"})
    assert typo.is_error and typo.structured_content["status"] == 404
    assert typo.content[0].text.startswith("404 not_found: no tool 'recal' (did you mean 'recall'?)")
    # Claude Desktop sends a list argument as JSON text; the SDK reads it as the list, and so does the check before
    quoted = mcp_call(server, token, "recall", {"topic": "Thomas", "participants": '["Sarah"]', "dry_run": True})
    assert not quoted.is_error, quoted.content
    assert quoted.structured_content["participants"] == ["Sarah"]


def _shape(schema: Any) -> Any:
    """A JSON schema without its titles and descriptions (the function's parameter names title the tool's)."""
    if isinstance(schema, dict):
        return {k: _shape(v) for k, v in schema.items() if k not in ("title", "description")}
    if isinstance(schema, list):
        return [_shape(v) for v in schema]
    return schema


def test_each_tool_publishes_the_schema_of_the_model_that_checks_its_arguments(server: Server) -> None:
    async def listed() -> Any:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {server.key}"}, timeout=60) as http, \
                Client(streamable_http_client(server.url + "/mcp", http_client=http)) as client:
            return await client.list_tools()

    tools = {tool.name: tool.input_schema for tool in asyncio.run(listed()).tools}
    assert set(tools) == set(TOOL_ARGUMENTS)
    for name, model in TOOL_ARGUMENTS.items():
        published, checked = _shape(tools[name]), _shape(model.model_json_schema())
        assert published["properties"] == checked["properties"], name
        assert set(published.get("required", ())) == set(checked.get("required", ())), name
    assert _shape(tools["recall"]["properties"]["k"])["anyOf"][0] == {"type": "integer", "minimum": 1, "maximum": 100}
