"""The network API's contract (docs/service.md), each point through a real ``graphmem serve`` and, where it
applies, the MCP SDK's client: the OpenAPI document, eliminated observers, ids in the batch answer, recall's
dry_run/seed/at and who may use them, text that is not Unicode, unreadable bodies, NFD names, /mcp without
credential, revoking an unknown player's tokens, and every error answer in JSON (an unexpected one too)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
import unicodedata
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import httpx2
import neo4j
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.integration.helpers import fresh, recall_counts
from tests.integration.server_process import Server, free_port, start_server
from tests.integration.test_server import live_game, mcp_call, mint, small_game

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


def test_every_route_of_the_openapi_document_gives_its_answers_schema(server: Server) -> None:
    paths = httpx.get(server.url + "/openapi.json").json()["paths"]
    assert len(paths) >= 18
    missing = []
    for path, operations in paths.items():
        for method, operation in operations.items():
            ok = next(str(s) for s in operation["responses"] if str(s).startswith("2"))
            content = operation["responses"][ok].get("content", {})
            if not content or not all(c.get("schema") and c["schema"] != {} for c in content.values()):
                missing.append(f"{method.upper()} {path}")
            error = operation["responses"].get("422") or operation["responses"].get("404")
            assert error and error["content"]["application/json"]["schema"], (method, path)
    assert missing == []
    schemas = httpx.get(server.url + "/openapi.json").json()["components"]["schemas"]
    assert {"BatchAnswer", "RecallAnswer", "ErrorAnswer", "Readiness"} <= set(schemas)
    assert "ids" in schemas["BatchAnswer"]["properties"]


def test_ingest_takes_an_upload_as_its_openapi_document_says(server: Server, engine: httpx.Client) -> None:
    body = httpx.get(server.url + "/openapi.json").json()["paths"]["/ingest"]["post"]["requestBody"]["content"]
    form = body["multipart/form-data"]["schema"]
    if "$ref" in form:
        name = form["$ref"].rsplit("/", 1)[1]
        form = httpx.get(server.url + "/openapi.json").json()["components"]["schemas"][name]
    assert form["properties"]["files"]["anyOf"][0]["type"] == "array" and "application/x-ndjson" in body
    header, log = small_game(fresh("srv-form"))
    text = "\n".join(json.dumps(x) for x in [header, *log]).encode()
    # curl --data-binary sends a form's type by default: the log is still read whole
    as_form = engine.post("/ingest", content=text, headers={"content-type": "application/x-www-form-urlencoded"})
    assert as_form.status_code == 200 and as_form.json()["games"] == 1, as_form.text
    example = Path(__file__).resolve().parents[2] / "examples" / "traitors-llm" / "433y9yyp"
    misnamed = engine.post("/ingest", files=[("upload", ("plomp.json", (example / "plomp.json").read_bytes()))],
                           params={"format": "traitors-plomp"})
    assert misnamed.status_code == 400 and misnamed.json()["field"] == "files", misnamed.text
    assert misnamed.json()["error"] == "malformed_request" and "named files" in misnamed.json()["reason"]


def test_eliminated_observers_are_dropped_and_listed_like_witnesses(engine: httpx.Client) -> None:
    game, _ = live_game(engine, 26)  # Thomas banished (event 18), Priya murdered (event 25)
    seen = {"kind": "observe", "observers": ["Marcus", "Thomas"], "text": "Marcus finds a note under the door."}
    answer = engine.post(f"/games/{game}/events", json={"events": [seen], "after": 26})
    assert answer.status_code == 200, answer.text
    assert answer.json()["dropped"] == [{"index": 0, "id": "28", "field": "observers[1]", "player": "Thomas",
                                         "reason": "Thomas was banished at event 18 of the game (day 1, banishment): "
                                                   "an eliminated player perceives nothing"}]
    nobody = {"kind": "observe", "observers": ["Thomas", "Priya"], "text": "A ghost story."}
    refused = engine.post(f"/games/{game}/events", json={"events": [nobody], "after": 27})
    assert refused.status_code == 422 and refused.json()["field"] == "observers[0]", refused.text


def test_the_batch_answer_gives_the_stored_ids_which_by_default_are_log_positions(engine: httpx.Client) -> None:
    game, log = live_game(engine, 6)
    mine = {"kind": "say", "id": "mine-1", "speaker": "Marcus", "to": "all", "channel": "public", "text": "Hello."}
    answer = engine.post(f"/games/{game}/events", json={"events": [log[6], mine, log[7]], "after": 6})
    assert answer.status_code == 200, answer.text
    # the header is line 1: the game's first event is "2", so its 7th (index 6) is "8"
    assert answer.json()["ids"] == [log[6].get("id", "8"), "mine-1", log[7].get("id", "10")]
    resent = engine.post(f"/games/{game}/events", json={"events": [log[6], mine, log[7]], "after": 6})
    assert resent.json()["already_stored"] == 3 and resent.json()["ids"] == answer.json()["ids"]
    gap = engine.post(f"/games/{game}/events", json={"events": [log[12]], "after": 12})
    assert gap.status_code == 409
    assert "holds 9 events, and this batch was sent after 12 events: events 9..11 were never stored" in \
        gap.json()["reason"]


def test_recall_dry_run_seed_and_at_over_http_and_mcp(server: Server, engine: httpx.Client,
                                                       driver: neo4j.Driver) -> None:
    game, _ = live_game(engine, 26)
    token = mint(engine, game, "Marcus")

    def counts() -> dict[str, int]:
        return recall_counts(driver, game, "Marcus")

    before = counts()
    with server.client(token) as marcus:
        route = f"/games/{game}/players/Marcus/recall"
        first = marcus.post(route, json={"topic": "Thomas", "dry_run": True, "seed": 11})
        second = marcus.post(route, json={"topic": "Thomas", "dry_run": True, "seed": 11})
        assert first.status_code == 200, first.text
        assert (first.json()["dry_run"], first.json()["written"], first.json()["seed"]) == (True, 0, 11)
        assert first.json() == second.json()  # the same seed, nothing written in between: the same recall
        assert counts() == before  # a dry run changes no memory
        chosen = marcus.post(route, json={"topic": "Thomas", "seed": 11})
        assert chosen.status_code == 403 and "writes with a chosen seed" in chosen.json()["reason"]
        assert counts() == before
        past = marcus.post(route, json={"topic": "Thomas", "at": 2})
        assert past.status_code == 403 and "at another phase (at) needs the engine key" in past.json()["reason"]
    looked = engine.post(f"/games/{game}/players/Marcus/recall", json={"topic": "Thomas", "at": 2})
    assert looked.status_code == 200 and looked.json()["phase"] == 2 and looked.json()["dry_run"] is True
    assert counts() == before
    dry = mcp_call(server, token, "recall", {"topic": "Thomas", "dry_run": True, "seed": 11})
    assert not dry.is_error and dry.structured_content["written"] == 0
    assert dry.structured_content["memories"] == first.json()["memories"]
    refused = mcp_call(server, token, "recall", {"topic": "Thomas", "at": 2})
    assert refused.is_error and "403 forbidden:" in refused.content[0].text
    other = mcp_call(server, token, "recall", {"topic": "Thomas", "player": "Sarah"})
    assert other.is_error and "it cannot reach Sarah's memory" in other.content[0].text
    by_engine = mcp_call(server, server.key, "recall", {"topic": "Thomas", "game": game, "player": "Marcus", "at": 2})
    assert not by_engine.is_error and by_engine.structured_content["phase"] == 2
    assert "true_day" in by_engine.structured_content["memories"][0]  # the engine sees the ground truth


LONE = "I saw \ud83d"  # half of an emoji, as a JavaScript engine that cut it sends it: valid JSON, not Unicode


def _raw(value: Any) -> bytes:
    return json.dumps(value).encode()  # ensure_ascii: the surrogate travels as the escape \ud83d


def test_text_that_is_not_unicode_is_bad_input_with_its_index_field_and_reason(server: Server, engine: httpx.Client,
                                                                               tmp_path: Path) -> None:
    game, log = live_game(engine, 6)
    json_body = {"content-type": "application/json"}
    say = {"kind": "say", "speaker": "Marcus", "to": "all", "channel": "public", "text": LONE}
    events = engine.post(f"/games/{game}/events", content=_raw({"events": [log[6], say], "after": 6}),
                         headers=json_body)
    assert events.status_code == 422, events.text
    assert (events.json()["error"], events.json()["index"], events.json()["field"]) == ("invalid_events", 1, "text")
    assert "character 6 is a lone surrogate (\\ud83d)" in events.json()["reason"]
    token = mint(engine, game, "Marcus")
    with server.client(token) as marcus:
        topic = marcus.post(f"/games/{game}/players/Marcus/recall", content=_raw({"topic": LONE}), headers=json_body)
        thought = marcus.post(f"/games/{game}/players/Marcus/thoughts", content=_raw({"text": LONE}),
                              headers=json_body)
    for answer, field in ((topic, "topic"), (thought, "text")):
        assert answer.status_code == 422 and answer.json()["field"] == field, answer.text
        assert "lone surrogate" in answer.json()["reason"]
    header, rest = small_game(fresh("srv-lone"))
    upload = (json.dumps(header) + "\n" + json.dumps({**rest[0], "text": LONE}) + "\n").encode()
    uploaded = engine.post("/ingest", content=upload, headers={"content-type": "application/x-ndjson"})
    assert uploaded.status_code == 422 and uploaded.json()["problems"][0]["line"] == 2, uploaded.text
    assert uploaded.json()["problems"][0]["field"] == "text"
    example = Path(__file__).resolve().parents[2] / "examples" / "traitors-llm" / "433y9yyp"
    text = (example / "plomp.json").read_text(encoding="utf-8")
    speech = next(item["data"]["payload"]["plomp_display_text"] for item in json.loads(text)["buffer_items"]
                  if item["type"] == "event" and item["data"]["payload"].get("plomp_display_event_type")
                  == "ROUND_TABLE_SPEECH")
    said = json.dumps(speech)[1:41]  # as the file spells it
    assert said in text
    plomp = text.replace(said, said + "\\ud83d", 1).encode()
    files = [("files", ("plomp.json", plomp, "application/json")),
             ("files", ("result.json", (example / "result.json").read_bytes(), "application/json"))]
    multipart = engine.post("/ingest", files=files, params={"format": "traitors-plomp", "folder_name": fresh("lone")})
    assert multipart.status_code == 422 and multipart.json()["error"] == "invalid_log", multipart.text
    assert multipart.json()["field"].endswith("(canonical say event, field text)")
    assert "is a lone surrogate (\\ud83d)" in multipart.json()["reason"]
    # over MCP the SDK's own JSON parser refuses it first, with a JSON-RPC parse error (its client cannot even send
    # it: it encodes UTF-8 strictly), so one raw JSON-RPC call, as examples/engine/play.py makes them
    rpc = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "recall", "arguments": {"topic": LONE}}}
    called = httpx.post(server.url + "/mcp", content=_raw(rpc), timeout=120, headers={
        "Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream", **json_body})
    assert called.status_code == 400 and called.json()["error"]["code"] == -32700, called.text
    assert "hex escape" in called.json()["error"]["message"]
    stored = tmp_path / "lone.jsonl"
    stored.write_bytes(upload)
    cli = subprocess.run([sys.executable, "-m", "graphmem.cli", "ingest", str(stored)], capture_output=True,
                         text=True, timeout=300, env=server.env)
    assert cli.returncode == 1 and "Traceback" not in cli.stderr, cli.stderr
    assert "line 2, field 'text': character 6 is a lone surrogate" in cli.stderr


def test_a_body_that_cannot_be_read_is_malformed_json(engine: httpx.Client) -> None:
    game, _ = live_game(engine, 2)
    route = f"/games/{game}/events"
    json_body = {"content-type": "application/json"}
    not_utf8 = engine.post(route, content=b'{"events": [], "after": "\xff\xfe"}', headers=json_body)
    assert not_utf8.status_code == 400 and not_utf8.json()["error"] == "malformed_json", not_utf8.text
    assert "not UTF-8" in not_utf8.json()["reason"]
    deep = engine.post(route, content=b'{"events": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", headers=json_body)
    assert deep.status_code == 400 and deep.json()["error"] == "malformed_json", deep.text
    # the bytes of half an emoji encoded as if it were a character (ED A0 BD: not UTF-8); Python's json module lets
    # them through as a lone surrogate (surrogatepass), which made the body a 422 about its text
    say = {"kind": "say", "speaker": "Marcus", "to": "all", "channel": "public", "text": "I saw \ud83d"}
    encoded = json.dumps({"after": 2, "events": [say]}, ensure_ascii=False).encode("utf-8", "surrogatepass")
    assert b"I saw \xed\xa0\xbd" in encoded
    surrogate = engine.post(route, content=encoded, headers=json_body)
    assert surrogate.status_code == 400 and surrogate.json()["error"] == "malformed_json", surrogate.text
    assert "not UTF-8 (byte 0xed at offset" in surrogate.json()["reason"]


def test_a_decomposed_player_name_is_the_same_player_for_its_token(server: Server, engine: httpx.Client) -> None:
    game = fresh("srv-nfd")
    header = {"kind": "game", "format": "graphmem/1", "game": game,
              "players": [{"name": "Zoë", "role": "traitor"}, {"name": "Ann", "role": "faithful"}]}
    assert engine.post("/games", json=header).status_code == 201
    say = {"kind": "say", "speaker": "Ann", "to": ["Zoë"], "channel": "private", "text": "I trust you."}
    assert engine.post(f"/games/{game}/events", json={"events": [say], "after": 0}).status_code == 200
    decomposed = unicodedata.normalize("NFD", "Zoë")
    assert decomposed != "Zoë"
    token = mint(engine, game, decomposed)
    with server.client(token) as zoe:
        answer = zoe.post(f"/games/{game}/players/{decomposed}/recall", json={"topic": "trust"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["player"] == "Zoë" and answer.json()["memories"]
    # a decomposed participant is the same player too: it was 404 "unknown participant 'Zoë' (players: Ann, Zoë)"
    told = engine.post(f"/games/{game}/players/Ann/recall", json={"participants": [decomposed], "dry_run": True})
    assert told.status_code == 200 and told.json()["participants"] == ["Zoë"], told.text


def test_mcp_without_credential_answers_a_json_rpc_error(server: Server) -> None:
    plain = httpx.post(server.url + "/mcp", json={"jsonrpc": "2.0", "id": 7, "method": "tools/list"})
    assert plain.status_code == 401
    error = plain.json()["error"]
    assert error["code"] == -32001 and error["message"].startswith("401 unauthorized: this server needs a credential")

    async def listed() -> Any:
        async with httpx2.AsyncClient(timeout=60) as http, \
                Client(streamable_http_client(server.url + "/mcp", http_client=http)) as client:
            return await client.list_tools()

    with pytest.raises(Exception) as caught:  # anyio's task group may wrap it: checked below
        asyncio.run(listed())
    assert isinstance(caught.value, MCPError) and "401 unauthorized" in str(caught.value) or \
        caught.group_contains(MCPError, match="401 unauthorized: this server needs a credential", depth=None)


def test_revoking_the_tokens_of_an_unknown_player_is_not_found(engine: httpx.Client) -> None:
    game, _ = live_game(engine, 2)
    answer = engine.delete(f"/games/{game}/tokens", params={"player": "Nobody"})
    assert answer.status_code == 404 and "no player 'Nobody'" in answer.json()["reason"]
    mint(engine, game, "Marcus")
    revoked = engine.delete(f"/games/{game}/tokens", params={"player": "Marcus"})
    assert revoked.status_code == 200 and revoked.json()["revoked"] == 1


@pytest.fixture()
def failing_server(memory: Any) -> Iterator[str]:
    """A real uvicorn on a free port serving the app over a service whose ``games`` fails unexpectedly."""
    import uvicorn

    from graphmem.server.http import create_app
    from graphmem.service import MemoryService

    class Failing(MemoryService):
        def games(self) -> list[dict[str, Any]]:
            raise ZeroDivisionError("a bug")

    service = Failing(memory.driver, settings=memory.settings.with_overrides(engine_key=None),
                      params=memory.params, embedder=memory.embedder)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(service, warm=False), port=port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def test_an_unexpected_error_is_the_documented_json_body(failing_server: str) -> None:
    answer = httpx.get(failing_server + "/games")
    assert answer.status_code == 500 and answer.headers["content-type"] == "application/json"
    assert answer.json() == {"error": "internal_error", "field": None, "index": None,
                             "reason": "ZeroDivisionError: the server failed on this request (its log has the "
                                       "details)"}


def test_two_workers_take_every_batch_sent_without_after(neo4j_uri: str, schema: object, driver: neo4j.Driver,
                                                         tmp_path: Path) -> None:
    server = start_server(neo4j_uri, tmp_path, args=["--workers", "2"])
    try:
        game = fresh("srv-race")
        header, _ = small_game(game)
        with server.client() as engine_client:
            assert engine_client.post("/games", json=header).status_code == 201
            names = [p["name"] for p in header["players"]]

            def send(i: int) -> tuple[int, str]:
                say = {"kind": "say", "id": f"r{i}", "speaker": names[i % len(names)], "to": "all",
                       "channel": "public", "text": f"Remark number {i}."}
                with server.client() as client:  # a connection of its own: the two workers share the load
                    answer = client.post(f"/games/{game}/events", json={"events": [say]})
                    return answer.status_code, answer.text

            with ThreadPoolExecutor(12) as pool:
                answers = list(pool.map(send, range(36)))
            assert [a for a in answers if a[0] != 200] == []
    finally:
        server.stop()
    stored = driver.execute_query("MATCH (g:Game {uid: $game}) RETURN g.log_events AS n", game=game).records
    assert stored[0]["n"] == 36
    assert "Traceback" not in server.log.read_text(encoding="utf-8", errors="replace")


def test_graphmem_mcp_closes_its_driver_when_the_client_leaves(server: Server) -> None:
    done = subprocess.run([sys.executable, "-X", "dev", "-m", "graphmem.cli", "mcp"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=180, env={**server.env, "GRAPHMEM_TOKEN": "x"})
    assert done.returncode == 0, done.stderr[-2000:]
    # the neo4j driver warns "ResourceWarning: unclosed  BoltDriver" (shown under -X dev) when nobody closed it
    assert "ResourceWarning" not in done.stderr and "Driver" not in done.stderr, done.stderr[-2000:]


def test_a_recall_topic_of_any_length_is_answered(server: Server, engine: httpx.Client) -> None:
    # an agent passing its last stretch of conversation as the topic: 2,000 distinct words made a full-text query of
    # more clauses than Lucene takes (a plain 500 before); the longest words are searched, and the memory that
    # matches them comes first
    game, _ = live_game(engine, 26)
    token = mint(engine, game, "Marcus")
    filler = " ".join(f"w{i}" for i in range(2000))
    with server.client(token) as marcus:
        answer = marcus.post(f"/games/{game}/players/Marcus/recall",
                             json={"topic": f"{filler} Thomas medical training", "dry_run": True})
        assert answer.status_code == 200, answer.text
        assert answer.json()["memories"], "the words that mean something still find memories"
    tool = mcp_call(server, token, "recall", {"topic": f"{filler} Thomas", "dry_run": True})
    assert not tool.is_error, tool.content


def test_a_live_game_of_a_series_started_over_http_remembers_the_earlier_game(server: Server,
                                                                              engine: httpx.Client) -> None:
    # docs/model.md#series-of-games: the header's series joins the game; a player's token reaches the memories of
    # that person's earlier game, labelled with it, and nobody else's
    series = fresh("http-series")
    first, log = small_game(fresh("srv-s1"))
    first["series"] = {"name": series, "position": 1}
    assert engine.post("/games", json=first).status_code == 201
    answer = engine.post(f"/games/{first['game']}/events", json={"events": log, "after": 0})
    assert answer.status_code == 200, answer.text
    second, _ = small_game(fresh("srv-s2"))
    second["series"] = {"name": series}
    assert engine.post("/games", json=second).status_code == 201
    topic = {"topic": "Eleanor said Marcus has medical training", "k": 20, "dry_run": True}
    with server.client(mint(engine, second["game"], "Marcus")) as marcus:
        seen = marcus.post(f"/games/{second['game']}/players/Marcus/recall", json=topic)
    assert seen.status_code == 200, seen.text
    earlier = [m for m in seen.json()["memories"] if m["series_game"] == 1]
    assert earlier and {m["game"] for m in earlier} == {first["game"]}
    assert "[Game 1" in seen.json()["prompt"]
    with server.client(mint(engine, second["game"], "Thomas")) as thomas:
        other = thomas.post(f"/games/{second['game']}/players/Thomas/recall", json=topic)
    assert other.status_code == 200, other.text
    # Eleanor told Marcus alone: Thomas never heard it, in either game
    assert not any("medical training" in m["text"] for m in other.json()["memories"])


def test_a_lone_surrogate_in_an_event_id_is_refused_and_quoted_back(engine: httpx.Client) -> None:
    # validation caught it; the 422 that quotes the id failed to render (a 500), on the batch path and in a new game's
    # history alike; the answer quotes it as the JSON escape the client sent
    game, _ = live_game(engine, 0)
    bad = {"id": "e1\ud83d", "kind": "say", "speaker": "Sarah", "to": ["Marcus"], "channel": "private", "text": "x"}
    json_body = {"content-type": "application/json"}
    batch = engine.post(f"/games/{game}/events", content=_raw({"after": 0, "events": [bad]}), headers=json_body)
    header, _ = small_game(fresh("srv-lone-id"))
    created = engine.post("/games", content=_raw({**header, "history": [bad]}), headers=json_body)
    for answer in (batch, created):
        assert answer.status_code == 422, answer.text
        assert (answer.json()["error"], answer.json()["index"], answer.json()["field"]) == ("invalid_events", 0, "id")
        assert answer.json()["problems"][0]["id"] == "e1\ud83d"  # the id as sent, escaped in the JSON
        assert b'"e1\\ud83d"' in answer.content
        assert "event 0 of this batch (id 'e1\\ud83d'), field 'id': character 2 is a lone surrogate" in \
            answer.json()["reason"]
    # nothing of the history written (the game is open, as start_game says)
    assert engine.post(f"/games/{header['game']}/events", json={"after": 0, "events": []}).json()["total_events"] == 0


BIG = 2**63  # one more than the largest integer Neo4j stores


def test_an_integer_neo4j_cannot_store_is_refused_naming_its_field(server: Server, engine: httpx.Client) -> None:
    game, _ = live_game(engine, 6)
    before = engine.get(f"/games/{game}").json()
    phase = engine.post(f"/games/{game}/events", json={"after": 6, "events": [
        {"kind": "phase", "day": BIG, "name": "night"}]})
    assert (phase.status_code, phase.json()["field"], phase.json()["index"]) == (422, "day", 0), phase.text
    assert "less than or equal to 9223372036854775807" in phase.json()["reason"]
    answers = {
        "day": engine.post(f"/games/{game}/phase", json={"day": BIG, "name": "night"}),
        "at": engine.post(f"/games/{game}/players/Marcus/recall", json={"topic": "Thomas", "at": BIG}),
        "persistence": engine.post(f"/games/{game}/players/Marcus/thoughts", json={"text": "x", "persistence": BIG}),
        "after": engine.post(f"/games/{game}/events", json={"after": BIG, "events": []}),
    }
    for field, answer in answers.items():
        assert (answer.status_code, answer.json()["field"]) == (422, field), answer.text
    header, _ = small_game(fresh("srv-big"))
    series = engine.post("/games", json={**header, "series": {"name": fresh("big"), "position": BIG}})
    assert (series.status_code, series.json()["field"]) == (422, "series.position"), series.text
    token = mint(engine, game, "Marcus")
    thought = mcp_call(server, token, "remember_thought", {"text": "x", "persistence": BIG})
    assert thought.is_error and "persistence" in thought.content[0].text
    assert engine.get(f"/games/{game}").json() == before  # nothing written


def test_a_value_of_the_wrong_json_type_is_refused_naming_its_field_not_coerced(server: Server,
                                                                                 engine: httpx.Client) -> None:
    game, _ = live_game(engine, 6)
    before = engine.get(f"/games/{game}").json()
    answers = {
        "day": engine.post(f"/games/{game}/phase", json={"day": True, "name": "night"}),  # was stored as day 1
        "after": engine.post(f"/games/{game}/events", json={"after": "2", "events": []}),
        "k": engine.post(f"/games/{game}/players/Marcus/recall", json={"k": "5", "dry_run": True}),
        "priority": engine.post(f"/games/{game}/players/Marcus/thoughts", json={"text": "x", "priority": "0.5"}),
        "dry_run": engine.post(f"/games/{game}/players/Marcus/recall", json={"dry_run": "yes"}),
    }
    for field, answer in answers.items():
        assert (answer.status_code, answer.json()["field"]) == (422, field), answer.text
    assert engine.get(f"/games/{game}").json() == before
    # JSON's own types still pass: an integer where a number is meant (priority 1 is 1.0), k and seed as integers
    assert engine.post(f"/games/{game}/players/Marcus/recall", json={"k": 5, "seed": 3, "dry_run": True}).is_success
    # MCP passes integers as integers: its tools take them as before
    token = mint(engine, game, "Marcus")
    thought = mcp_call(server, token, "remember_thought", {"text": "x", "priority": 1, "persistence": 2})
    assert not thought.is_error, thought.content


def test_a_422_about_one_field_names_it(engine: httpx.Client) -> None:
    game, _ = live_game(engine, 6)
    answers = {
        # within Neo4j's range but beyond the game's decayed phase (as {"at": -1} names "at")
        "at": engine.post(f"/games/{game}/players/Marcus/recall", json={"at": BIG - 1}),
        "text": engine.post(f"/games/{game}/players/Marcus/thoughts", json={"text": ""}),
        "params.min_players": engine.post("/queries/rumour_reach",
                                          json={"params": {"game": game, "min_players": 2**64}}),
        "params.game": engine.post("/queries/rumour_reach", json={"params": {}}),
    }
    for field, answer in answers.items():
        assert (answer.status_code, answer.json()["field"]) == (422, field), answer.text
    # an HTTP caller is told how to give a parameter over HTTP, not only the command line's -p
    assert '"params": {"game": ...}' in answers["params.game"].json()["reason"]


def test_line_breaks_in_a_statement_stay_in_the_memory_and_the_prompt_shows_one_line(
        engine: httpx.Client, driver: neo4j.Driver) -> None:
    from graphmem.recall.prompt import check_block

    game, _ = live_game(engine, 6)
    said = "I was in the library.\nThomas was not\u2028and Priya\u0085left\u2029early."
    say = {"kind": "say", "speaker": "Sarah", "to": ["Marcus"], "channel": "private", "text": f"  {said}\n"}
    assert engine.post(f"/games/{game}/events", json={"after": 6, "events": [say]}).status_code == 200
    texts = [r["text"] for r in driver.execute_query(
        "MATCH (m:Memory {game: $game, owner: 'Marcus'}) WHERE m.text CONTAINS 'library' RETURN m.text AS text",
        game=game).records]
    assert len(texts) == 1 and f'"{said}"' in texts[0], texts  # the words as said, only the space around them gone
    recalled = engine.post(f"/games/{game}/players/Marcus/recall", json={"topic": "library", "dry_run": True})
    assert recalled.status_code == 200, recalled.text
    prompt = recalled.json()["prompt"]
    assert check_block(prompt) == [], prompt
    line = next(line for line in prompt.splitlines() if "library" in line)
    assert "I was in the library. Thomas was not and Priya left early." in line
    shown = next(m for m in recalled.json()["memories"] if "library" in m["text"])
    assert said in shown["text"]  # the JSON keeps the full text
