"""graphmem serve, driven as an engine and its agents drive it: a real server process on a free port, a real HTTP
client, the MCP SDK's own client over streamable HTTP and stdio, against the session's Neo4j."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import neo4j
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.integration.helpers import fresh
from tests.integration.server_process import ENGINE_KEY, Server

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
SMALL = Path(__file__).resolve().parents[2] / "examples" / "small-game.jsonl"
JOBS = Path(__file__).resolve().parents[1] / "data" / "jobs"
PLAYERS = ("Marcus", "Sarah", "Eleanor", "Thomas", "Priya")


def small_game(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in SMALL.read_text(encoding="utf-8").splitlines()]
    return {**lines[0], "game": game}, lines[1:]



def live_game(engine: httpx.Client, events: int | None = None, name: str = "srv") -> tuple[str, list[dict[str, Any]]]:
    """A live game of the small log fed over HTTP up to ``events`` events (all by default)."""
    game = fresh(name)
    header, log = small_game(game)
    assert engine.post("/games", json=header).status_code == 201
    todo = log if events is None else log[:events]
    sent = 0
    while sent < len(todo):  # batches of up to 6 events, each after the events before it
        batch = todo[sent:sent + 6]
        answer = engine.post(f"/games/{game}/events", json={"events": batch, "after": sent})
        assert answer.status_code == 200, answer.text
        sent += len(batch)
        assert answer.json()["total_events"] == sent
    return game, log


def mint(engine: httpx.Client, game: str, player: str) -> str:
    answer = engine.post(f"/games/{game}/players/{player}/tokens")
    assert answer.status_code == 201, answer.text
    token = answer.json()["token"]
    assert token.startswith("gmp_")
    return str(token)


def mcp_call(server: Server, credential: str | None, tool: str, arguments: dict[str, Any]) -> Any:
    """Call one MCP tool over streamable HTTP with the SDK's client."""
    async def call() -> Any:
        headers = {"Authorization": f"Bearer {credential}"} if credential else {}
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http, \
                Client(streamable_http_client(server.url + "/mcp", http_client=http)) as client:
            return await client.call_tool(tool, arguments)
    return asyncio.run(call())


# -- the process ---------------------------------------------------------------------------------------------------

def test_health_ready_and_the_openapi_document(server: Server) -> None:
    assert httpx.get(server.url + "/health").json()["engine_key"] is True
    ready = httpx.get(server.url + "/ready").json()
    assert ready["ready"] is True and ready["neo4j_version"].startswith("5.") and ready["model_seconds"] > 0
    paths = httpx.get(server.url + "/openapi.json").json()["paths"]
    assert {"/games", "/games/{game}/events", "/games/{game}/players/{player}/recall", "/ingest",
            "/queries/{name}", "/games/{game}/told"} <= set(paths)
    assert httpx.get(server.url + "/docs").status_code == 200


# -- an engine's game over HTTP ------------------------------------------------------------------------------------

def test_an_engine_plays_a_game_and_a_player_recalls_over_http_and_mcp(server: Server,
                                                                    engine: httpx.Client) -> None:
    game, _ = live_game(engine, 26)  # through the murder of Priya, day 2
    row = next(g for g in engine.get("/games").json() if g["game"] == game)
    assert (row["last_phase"], row["decayed_to"], row["live"]) == (6, 6, True)
    token = mint(engine, game, "Marcus")
    with server.client(token) as marcus:
        answer = marcus.post(f"/games/{game}/players/Marcus/recall", json={"topic": "Thomas", "k": 5})
        assert answer.status_code == 200, answer.text
        result = answer.json()
        assert result["player"] == "Marcus" and 0 < len(result["memories"]) <= 5
        assert result["prompt"].startswith("===")
        assert all(m["uid"].startswith(f"{game}/memory/Marcus/") for m in result["memories"])
        assert all("true_day" not in m and "fabricated" not in m["flags"] for m in result["memories"])
        thought = marcus.post(f"/games/{game}/players/Marcus/thoughts", json={"text": "Watch Sarah.", "priority": 0.9})
        assert thought.status_code == 201 and thought.json()["thought"].startswith(f"{game}/thought/Marcus/")
        assert marcus.get(f"/games/{game}/players/Marcus/conflicts").json()["conflicts"] == []
    called = mcp_call(server, token, "recall", {"topic": "Thomas", "participants": ["Sarah"], "k": 5})
    assert not called.is_error
    assert called.content[0].text.startswith("=== ACTIVE THOUGHTS ===\nWatch Sarah.")
    assert called.structured_content["player"] == "Marcus"


def test_the_phase_and_end_routes_and_a_token_that_dies_with_its_game(server: Server, engine: httpx.Client) -> None:
    game, log = live_game(engine, 12)
    token = mint(engine, game, "Priya")
    phase = engine.post(f"/games/{game}/phase", json={"day": 1, "name": "banishment", "after": 12})
    assert phase.status_code == 200 and phase.json()["to_phase"] == 4
    ended = engine.post(f"/games/{game}/end", json={"winner": "faithful", "after": 13})
    assert ended.status_code == 200 and ended.json()["ended"] is True
    with server.client(token) as priya:
        refused = priya.post(f"/games/{game}/players/Priya/recall", json={"topic": "Thomas"})
    assert refused.status_code == 403
    assert refused.json()["reason"] == f"game '{game}' has ended: the player tokens minted during it no longer work"
    late = engine.post(f"/games/{game}/events", json={"events": [log[12]]})
    assert late.status_code == 409 and "has ended" in late.json()["reason"]
    late_phase = engine.post(f"/games/{game}/phase", json={"day": 2, "name": "night"})
    assert late_phase.status_code == 409 and "has ended" in late_phase.json()["reason"], late_phase.text
    refused_mcp = mcp_call(server, token, "recall", {"topic": "Thomas"})
    assert refused_mcp.is_error and "403 forbidden: game" in refused_mcp.content[0].text


def test_roles_announced_after_the_game_was_created(engine: httpx.Client) -> None:
    game = fresh("srv-roles")
    header = {"kind": "game", "format": "graphmem/1", "game": game,
              "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]}
    assert engine.post("/games", json=header).status_code == 201
    # events that need no missing role are taken before the roles are set
    early = engine.post(f"/games/{game}/events", json={"events": [{"kind": "phase", "day": 1, "name": "social"}, {
        "kind": "say", "speaker": "Ann", "to": "all", "channel": "public", "text": "Good morning."}], "after": 0})
    assert early.status_code == 200, early.text
    assert engine.put(f"/games/{game}/roles", json={"roles": {"Ann": "traitor", "Bob": "faithful"}}).status_code == 200
    # one that does is refused, naming the player whose role is missing
    night = {"kind": "say", "speaker": "Ann", "to": "all", "channel": "traitors", "text": "Bob goes tonight."}
    refused = engine.post(f"/games/{game}/events", json={"events": [night], "after": 2})
    assert refused.status_code == 422, refused.text
    assert refused.json()["index"] == 0 and refused.json()["reason"].startswith(
        "event 0 of this batch (id '4'), field 'kind': an event on the traitors channel needs the role of Cy, not "
        "set yet")
    set_late = engine.put(f"/games/{game}/roles", json={"roles": {"Cy": "faithful"}})
    assert set_late.status_code == 200, set_late.text
    again = engine.put(f"/games/{game}/roles", json={"roles": {"Ann": "faithful"}})  # set already, events stored
    assert again.status_code == 409 and "the role of Ann is set already" in again.json()["reason"]
    taken = engine.post(f"/games/{game}/events", json={"events": [night], "after": 2})
    assert taken.status_code == 200, taken.text
    assert taken.json()["total_events"] == 3 and taken.json()["ids"] == ["4"]


def test_ingest_an_upload_run_the_jobs_a_query_and_the_told_picture(engine: httpx.Client, tmp_path: Path) -> None:
    game = fresh("srv-upload")
    header, log = small_game(game)
    text = "\n".join(json.dumps(x) for x in [header, *log]) + "\n"
    answer = engine.post("/ingest", content=text.encode(), headers={"content-type": "application/x-ndjson"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["games"] == 1 and answer.json()["memories"] > 0
    plomp = Path(__file__).resolve().parents[2] / "examples" / "traitors-llm" / "433y9yyp"
    files = [("files", (p.name, p.read_bytes(), "application/json")) for p in sorted(plomp.iterdir())]
    traitors = fresh("srv-plomp")
    imported = engine.post("/ingest", files=files, params={"format": "traitors-plomp", "folder_name": traitors})
    assert imported.status_code == 200 and imported.json()["per_game"][0]["game"] == traitors, imported.text
    assert engine.delete(f"/games/{traitors}").status_code == 200
    assert engine.post(f"/games/{game}/consolidate").status_code == 200
    assert engine.post(f"/games/{game}/contradictions").status_code == 200
    rows = engine.post("/queries/information_boundary", json={"params": {"game": game}})
    assert rows.status_code == 200 and rows.json()["rows"] == []
    reach = engine.post("/queries/who_told_whom", json={"params": {"game": game}}).json()
    assert reach["columns"] and reach["rows"]
    page = engine.get(f"/games/{game}/told")
    assert page.status_code == 200 and page.text.startswith("<!DOCTYPE html>")
    graphml = engine.get(f"/games/{game}/told", params={"format": "graphml"})
    assert graphml.status_code == 200 and b"<graphml" in graphml.content
    # a game stored from a file takes no live event: a conflict with the stored game (409), on every live route
    for route, body in (("phase", {"day": 9, "name": "x"}), ("events", {"events": []}), ("end", {"winner": "x"})):
        refused = engine.post(f"/games/{game}/{route}", json=body)
        assert (refused.status_code, refused.json()["error"]) == (409, "conflict"), (route, refused.text)
        assert "stored from a log file" in refused.json()["reason"], refused.text
    assert engine.delete(f"/games/{game}").status_code == 200
    assert engine.get(f"/games/{game}").status_code == 404


def test_an_uploaded_game_whose_id_comes_from_its_folder_is_stored_once(engine: httpx.Client, memory: Any,
                                                                        tmp_path: Path) -> None:
    """traitors-plomp, llmafia and werewolf-arena make the game id from the game's folder: an upload names it
    (folder_name) and gets the id `graphmem ingest FOLDER` gives, or is refused; it never stores a game ingested from
    its folder a second time under an id the server made up (it once did, as upload-<hash>)."""
    examples = Path(__file__).resolve().parents[2] / "examples"

    def upload(folder: Path, fmt: str, **params: str) -> httpx.Response:
        files = [("files", (p.name, p.read_bytes())) for p in sorted(folder.iterdir())]
        return engine.post("/ingest", files=files, params={"format": fmt, **params}, timeout=600)

    def stored() -> set[str]:
        return {row["game"] for row in engine.get("/games").json()}

    traitors = fresh("plomp")  # a Traitors game's folder, ingested from the folder as a user does first
    shutil.copytree(examples / "traitors-llm" / "433y9yyp", tmp_path / traitors)
    assert memory.ingest(tmp_path / traitors).games == 1
    before = stored()
    assert traitors in before
    for folder, fmt in ((tmp_path / traitors, "traitors-plomp"), (tmp_path / traitors, "auto"),
                        (examples / "llmafia" / "games" / "0001", "llmafia"),
                        (examples / "werewolf-arena" / "games" / "6p_seed03", "auto")):
        refused = upload(folder, fmt)
        assert (refused.status_code, refused.json()["field"]) == (422, "folder_name"), refused.text
        assert "pass folder_name, the name of the game's folder" in refused.json()["reason"]
    assert stored() == before
    again = upload(tmp_path / traitors, "traitors-plomp", folder_name=traitors)
    assert again.status_code == 200, again.text
    assert [(g["game"], g["unchanged"]) for g in again.json()["per_game"]] == [(traitors, True)]
    assert stored() == before  # the one copy
    named = fresh("6p_seed03")
    answer = upload(examples / "werewolf-arena" / "games" / "6p_seed03", "werewolf-arena", folder_name=named)
    assert answer.status_code == 200, answer.text
    assert stored() - before == {f"werewolf-arena-{named}"}  # the id `graphmem ingest` gives the folder of that name
    refused = upload(examples / "llmafia" / "games" / "0001", "llmafia", folder_name="../0001")
    assert refused.status_code == 422 and "folder_name '../0001'" in refused.json()["reason"], refused.text
    assert refused.json()["field"] == "folder_name"
    for game in (traitors, f"werewolf-arena-{named}"):
        assert engine.delete(f"/games/{game}").status_code == 200


def test_the_readme_curl_example_does_what_it_says(server: Server) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    script = "K=" + readme.split("## Serve", 1)[1].split("```\nK=", 1)[1].split("```", 1)[0]
    game = fresh("readme-curl")
    script = (script.replace("U=http://127.0.0.1:8750", f"U={server.url}").replace("g-8", game)
              .replace("python3 -c", f"{sys.executable} -c").replace("curl -s", "curl -w '\\n' -s"))
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=300,
                         env={"PATH": os.environ["PATH"], "GRAPHMEM_ENGINE_KEY": ENGINE_KEY})
    assert run.returncode == 0, run.stderr
    created, roles, events, recalled, refused = (json.loads(line) for line in run.stdout.splitlines() if line)
    assert created["game"] == game and roles["roles"] == {"Eleanor": "faithful"} and events["total_events"] == 2
    assert "[Sarah told you]" in recalled["prompt"] and "Eleanor is a traitor." in recalled["prompt"]
    assert refused == {"error": "forbidden", "field": None, "index": None,
                       "reason": "this player token is Marcus's: it cannot reach Sarah's memory"}


# -- bad input and faults ------------------------------------------------------------------------------------------

def test_bad_input_gets_its_status_and_a_one_line_reason(server: Server, engine: httpx.Client,
                                                         driver: neo4j.Driver) -> None:
    game, log = live_game(engine, 6)
    malformed = engine.post(f"/games/{game}/events", content=b'{"events": [', headers={"content-type": "application/json"})
    assert malformed.status_code == 400 and malformed.json()["error"] == "malformed_json"
    unknown = engine.post("/games/no-such-game/events", json={"events": [log[6]]})
    assert unknown.status_code == 404 and "no game 'no-such-game'" in unknown.json()["reason"]
    nobody = engine.post(f"/games/{game}/players/Nobody/recall", json={"topic": "x"})
    assert nobody.status_code == 404 and "Nobody" in nobody.json()["reason"]
    too_many = engine.post(f"/games/{game}/players/Marcus/recall", json={"topic": "x", "k": 101})
    assert too_many.status_code == 422 and too_many.json()["field"] == "k", too_many.text  # as MCP, CLI, Python API
    bad = {"kind": "say", "id": "x-1", "speaker": "Nobody", "to": ["Marcus"], "channel": "private", "text": "hi"}
    invalid = engine.post(f"/games/{game}/events", json={"events": [log[6], bad], "after": 6})
    body = invalid.json()
    assert invalid.status_code == 422
    assert (body["error"], body["index"], body["field"]) == ("invalid_events", 1, "speaker")
    assert body["reason"].startswith("event 1 of this batch (id 'x-1'), field 'speaker': unknown player 'Nobody'")
    out_of_order = engine.post(f"/games/{game}/events", json={"events": [log[8]], "after": 8})
    assert out_of_order.status_code == 409 and "events 6..7 were never stored" in out_of_order.json()["reason"]
    backwards = engine.post(f"/games/{game}/events", json={"events": [{"kind": "phase", "day": 0, "name": "x"}]})
    assert backwards.status_code == 422 and "phase goes backwards" in backwards.json()["reason"]
    oversized = engine.post(f"/games/{game}/events", content=b"{" + b" " * 2_100_000 + b"}",
                            headers={"content-type": "application/json"})
    assert oversized.status_code == 413 and oversized.json()["error"] == "body_too_large"

    def chunked() -> Iterator[bytes]:  # no Content-Length: the server learns the size only as it reads
        yield b"{"
        for _ in range(25):
            yield b" " * 100_000
        yield b"}"

    for route in (f"/games/{game}/events", "/ingest", "/mcp"):
        streamed = engine.post(route, content=chunked(), headers={"content-type": "application/json"})
        assert streamed.status_code == 413 and streamed.json()["error"] == "body_too_large", route
    stored = driver.execute_query("MATCH (g:Game {uid: $game}) RETURN g.log_events AS n", game=game).records[0]["n"]
    assert stored == 6  # nothing of any refused request was written
    assert httpx.post(server.url + f"/games/{game}/events", json={"events": []}).status_code == 401
    assert httpx.post(server.url + "/mcp", json={}).status_code == 401
    # an unknown route answers with the same JSON body as every other error
    for answer in (engine.get("/no/such/route"), engine.delete("/health"), engine.get("/games/x/players/y/z")):
        assert answer.status_code == 404 and answer.json()["error"] == "not_found" and "/docs" in answer.json()["reason"]
    # a live game has no file: a problem of its header is "the header", never "line 1"
    header, _ = small_game(fresh("hdr"))
    header["players"][0]["profile"] = "perfct"
    refused = engine.post("/games", json=header)
    assert refused.status_code == 422, refused.text
    assert refused.json()["reason"].startswith("the header, field 'players[0].profile': unknown memory profile")
    assert "line" not in refused.json()["problems"][0]


def test_a_second_engine_on_a_live_game_is_refused(engine: httpx.Client, server: Server) -> None:
    game, log = live_game(engine, 6)
    header, _ = small_game(game)
    again = engine.post("/games", json=header)  # the second engine believes the game is new
    assert again.status_code == 409 and "holds 6 events in Neo4j, and history has 0" in again.json()["reason"]
    mine = {"kind": "say", "speaker": "Marcus", "to": ["Sarah"], "channel": "private", "text": "Engine two here."}
    with server.client() as second:
        refused = second.post(f"/games/{game}/events", json={"events": [mine], "after": 0})
        resent = second.post(f"/games/{game}/events", json={"events": log[:2], "after": 0})
    assert refused.status_code == 409 and "overlaps them with other events" in refused.json()["reason"]
    assert resent.status_code == 200 and resent.json()["already_stored"] == 2  # the same events: a retry, no harm
    assert engine.post(f"/games/{game}/events", json={"events": log[6:8], "after": 6}).status_code == 200


# -- the information boundary --------------------------------------------------------------------------------------

def test_no_player_token_reaches_anything_but_its_own_players_memory(server: Server, engine: httpx.Client,
                                                                     tmp_path: Path) -> None:
    game, log = live_game(engine, 26)
    other_game, _ = live_game(engine, 6, name="srv-other")
    tokens = {p: mint(engine, game, p) for p in PLAYERS if p not in ("Thomas", "Priya")}  # the living
    tried = 0
    for owner, token in tokens.items():
        with server.client(token) as agent:
            for player in PLAYERS:
                routes: tuple[tuple[str, str, Any], ...] = (("POST", "recall", {"topic": "traitor"}),
                                                            ("POST", "thoughts", {"text": "mine"}),
                                                            ("GET", "conflicts", None))
                for method, path, payload in routes:
                    answer = agent.request(method, f"/games/{game}/players/{player}/{path}", json=payload)
                    tried += 1
                    if player == owner:
                        assert answer.status_code in (200, 201), answer.text
                        if path == "recall":
                            assert answer.json()["memories"]
                            assert all(m["uid"].startswith(f"{game}/memory/{owner}/") for m in answer.json()["memories"])
                    else:
                        assert answer.status_code == 403, (owner, player, path, answer.text)
                        assert answer.json()["reason"] == f"this player token is {owner}'s: it cannot reach " \
                                                          f"{player}'s memory"
                answer = agent.post(f"/games/{other_game}/players/{player}/recall", json={"topic": "traitor"})
                assert answer.status_code == 403 and "is for game" in answer.json()["reason"]
            engine_routes: list[tuple[str, str, Any]] = [("GET", "/games", None),
                                                         ("POST", "/games", small_game(fresh("x"))[0]),
                             ("POST", f"/games/{game}/events", {"events": [log[26]]}),
                             ("POST", f"/games/{game}/phase", {"day": 3, "name": "x"}),
                             ("POST", f"/games/{game}/end", {"winner": "x"}), ("DELETE", f"/games/{game}", None),
                             ("PUT", f"/games/{game}/roles", {"roles": {}}), ("GET", f"/games/{game}", None),
                             ("POST", f"/games/{game}/players/{owner}/tokens", None),
                             ("DELETE", f"/games/{game}/tokens", None), ("GET", "/queries", None),
                             ("POST", "/queries/player_memories", {"params": {"game": game, "player": "Thomas"}}),
                             ("POST", "/queries/information_boundary", {"params": {"game": game}}),
                             ("GET", f"/games/{game}/told", None), ("POST", f"/games/{game}/consolidate", None),
                             ("POST", f"/games/{game}/contradictions", None)]
            for method, path, payload in engine_routes:
                answer = agent.request(method, path, json=payload)
                tried += 1
                assert answer.status_code == 403, (owner, method, path, answer.text)
            answer = agent.post("/ingest", content=SMALL.read_bytes())
            assert answer.status_code == 403
        for tool, arguments in (("add_events", {"game": game, "events": [log[26]]}),
                                ("advance_phase", {"game": game, "day": 3, "name": "x"})):
            result = mcp_call(server, token, tool, arguments)
            tried += 1
            assert result.is_error and "403 forbidden:" in result.content[0].text
        mine = mcp_call(server, token, "recall", {"topic": "traitor", "participants": ["Thomas"]})
        assert all(m["uid"].startswith(f"{game}/memory/{owner}/") for m in mine.structured_content["memories"])
    assert tried == 3 * (5 * 3 + 16 + 2)  # three living players: every agent route, engine route and tool
    logged = server.log.read_text(encoding="utf-8", errors="replace")
    assert not [t for t in tokens.values() if t in logged] and ENGINE_KEY not in logged  # credentials never logged
    log_events = engine.get("/games").json()
    assert next(g for g in log_events if g["game"] == game)["last_phase"] == 6  # nothing an agent sent was taken


def test_the_mcp_tools_are_annotated_and_engine_tools_take_the_engine_key(server: Server,
                                                                         engine: httpx.Client) -> None:
    game, log = live_game(engine, 6)

    async def tools() -> Any:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {ENGINE_KEY}"}) as http, \
                Client(streamable_http_client(server.url + "/mcp", http_client=http)) as client:
            listed = await client.list_tools()
            added = await client.call_tool("add_events", {"game": game, "events": log[6:8], "after": 6})
            recalled = await client.call_tool("recall", {"topic": "x"})
            return listed, added, recalled

    listed, added, recalled = asyncio.run(tools())
    annotations = {t.name: t.annotations for t in listed.tools}
    assert set(annotations) == {"recall", "remember_thought", "my_conflicts", "add_events", "advance_phase"}
    assert annotations["my_conflicts"].read_only_hint is True
    assert annotations["recall"].read_only_hint is False  # recalling reconsolidates the recalled memories
    assert not added.is_error and added.structured_content["total_events"] == 8
    assert recalled.is_error and "player's memory: call it with that player's token" in recalled.content[0].text


def test_advance_phase_over_mcp_takes_to_as_the_phase_route_does(server: Server, engine: httpx.Client) -> None:
    """``to`` lets a game that takes no more phase events (ended, or ingested from a file) fade to a later phase: an
    engine over MCP says it as one over HTTP does, and both games fade alike (docs/service.md#mcp)."""
    by_http, _ = live_game(engine, name="srv-to-http")  # the whole small log: the game has ended
    by_mcp, _ = live_game(engine, name="srv-to-mcp")
    last = engine.get("/games").json()
    phase = next(g["decayed_to"] for g in last if g["game"] == by_http)
    route = engine.post(f"/games/{by_http}/phase", json={"to": phase + 3})
    assert route.status_code == 200, route.text
    tool = mcp_call(server, ENGINE_KEY, "advance_phase", {"game": by_mcp, "to": phase + 3})
    assert not tool.is_error, tool.content
    assert tool.structured_content == {**route.json(), "game": by_mcp}
    assert tool.structured_content["from_phase"] == phase and tool.structured_content["to_phase"] == phase + 3
    stored = {g["game"]: g["decayed_to"] for g in engine.get("/games").json()}
    assert stored[by_http] == stored[by_mcp] == phase + 3


def test_my_conflicts_gives_each_conflict_in_the_players_words(server: Server, engine: httpx.Client) -> None:
    lines = [json.loads(line) for line in (JOBS / "lie.jsonl").read_text(encoding="utf-8").splitlines()]
    game = fresh("srv-lie")  # Ben votes for Dan, then tells Cara he voted for Eve: a lie Cara catches
    assert engine.post("/games", json={**lines[0], "game": game}).status_code == 201
    assert engine.post(f"/games/{game}/events", json={"events": lines[1:], "after": 0}).status_code == 200
    found = engine.post(f"/games/{game}/contradictions")
    assert found.status_code == 200 and found.json()["by_kind"] == {"lie": 1}, found.text
    cara, ava = mint(engine, game, "Cara"), mint(engine, game, "Ava")
    said = "Ben claimed to have voted for Eve on day 1, but you saw Ben vote for Dan."
    mine = mcp_call(server, cara, "my_conflicts", {})
    assert not mine.is_error, mine.content
    (conflict,) = mine.structured_content["conflicts"]
    assert (conflict["kind"], conflict["subject"], conflict["said"]) == ("lie", "Ben", said)
    assert len(conflict["memories"]) == 2 and all(m.startswith(f"{game}/memory/Cara/") for m in conflict["memories"])
    with server.client(cara) as client:
        over_http = client.get(f"/games/{game}/players/Cara/conflicts").json()["conflicts"]
    assert over_http == mine.structured_content["conflicts"]
    assert mcp_call(server, ava, "my_conflicts", {}).structured_content["conflicts"] == []  # Cara's, not Ava's
    recalled = mcp_call(server, cara, "recall", {"topic": "Ben's vote", "k": 20})
    assert recalled.content[0].text.splitlines().count(f"({said})") == 1


def test_mcp_over_stdio_with_a_player_token(server: Server, engine: httpx.Client) -> None:
    game, _ = live_game(engine, 12)
    token = mint(engine, game, "Eleanor")

    async def session() -> Any:
        params = StdioServerParameters(command=sys.executable, args=["-m", "graphmem.cli", "mcp"],
                                       env={**server.env, "GRAPHMEM_TOKEN": token})
        async with Client(params, read_timeout_seconds=120) as client:
            recalled = await client.call_tool("recall", {"topic": "Thomas"})
            thought = await client.call_tool("remember_thought", {"text": "Priya suspects Thomas."})
            return recalled, thought

    recalled, thought = asyncio.run(session())
    assert not recalled.is_error and recalled.structured_content["player"] == "Eleanor"
    assert not thought.is_error and "Eleanor" in thought.structured_content["thought"]


def test_mcp_over_stdio_exits_cleanly_when_the_client_leaves_before_the_model_is_loaded(server: Server) -> None:
    # an agent host that starts the server and closes it at once (a configuration check, a cancelled session)
    done = subprocess.run([sys.executable, "-m", "graphmem.cli", "mcp"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=180, env={**server.env, "GRAPHMEM_TOKEN": "x"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "Exception in thread" not in done.stderr, done.stderr[-2000:]
    # nor PyTorch's bindings reporting the objects the model's garbage-collector freeze kept from shutdown
    assert "leaked" not in done.stderr, done.stderr[-2000:]
