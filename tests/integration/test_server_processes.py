"""graphmem serve as a fleet: two processes on one Neo4j give the answers one gives, and a server outlives a Neo4j
stopped mid-request and restarted; without an engine key it listens on loopback only; the example engine
(examples/engine/play.py) plays its whole game against a real server."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import neo4j
import pytest

from tests.integration.helpers import recall_counts
from tests.integration.server_process import ENGINE_KEY, Server, free_port, start_server
from tests.integration.test_service import memories

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "examples" / "small-game.jsonl"


def small_game(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in SMALL.read_text(encoding="utf-8").splitlines()]
    return {**lines[0], "game": game}, lines[1:]


def test_the_example_engine_plays_its_whole_game(server: Server) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "engine" / "play.py"), "--url", server.url,
                          "--key", ENGINE_KEY], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "recalls over MCP; Cleo's token now gets 403" in run.stdout
    assert "graphmem left out Eli of witnesses[3]: Eli was banished" in run.stdout


def test_two_server_processes_on_one_neo4j_answer_as_one(server: Server, neo4j_uri: str, driver: neo4j.Driver,
                                                         memory: Any, tmp_path: Path) -> None:
    other = start_server(neo4j_uri, tmp_path)
    try:
        stream, batch = f"fleet-{uuid.uuid4().hex[:8]}", f"fleet-file-{uuid.uuid4().hex[:8]}"
        header, log = small_game(stream)
        file_header, _ = small_game(batch)
        path = tmp_path / "g.jsonl"
        path.write_text("\n".join(json.dumps(x) for x in [file_header, *log]), encoding="utf-8")
        memory.ingest(path)
        with server.client() as a, other.client() as b:
            assert a.post("/games", json=header).status_code == 201
            for start in range(0, len(log), 4):  # the batches alternate between the two processes
                answer = (a, b)[start // 4 % 2].post(f"/games/{stream}/events",
                                                     json={"events": log[start:start + 4], "after": start})
                assert answer.status_code == 200, answer.text
        assert memories(driver, stream) == memories(driver, batch)

        def counts() -> dict[str, int]:
            return recall_counts(driver, stream, "Marcus")

        before = counts()
        topics = ["Thomas", "traitor", "Priya", "votes", "Sarah", "banishment", "breakfast", "Eleanor"]

        def recall(i: int) -> dict[str, Any]:
            with (server, other)[i % 2].client() as client:
                answer = client.post(f"/games/{stream}/players/Marcus/recall", json={"topic": topics[i]})
                assert answer.status_code == 200, answer.text
                return dict(answer.json())

        with ThreadPoolExecutor(8) as pool:  # an agent calling in parallel, through both processes
            results = list(pool.map(recall, range(8)))
        returned: dict[str, int] = {}
        for result in results:
            for m in result["memories"]:
                returned[m["uid"]] = returned.get(m["uid"], 0) + 1
        after = counts()
        assert {uid: after[uid] - before[uid] for uid in after if after[uid] != before[uid]} == returned
    finally:
        other.stop()


def test_a_server_answers_503_while_neo4j_is_down_and_goes_on_when_it_is_back(tmp_path: Path) -> None:
    from graphmem import local_neo4j
    from graphmem.store.schema import ensure_schema

    home, port = tmp_path / "neo4j", free_port()
    state = local_neo4j.start(home, port=port, timeout=300)
    server: Server | None = None
    try:
        with neo4j.GraphDatabase.driver(state.uri, auth=("neo4j", "graphmem")) as drv:
            ensure_schema(drv, None, 384)
        # a 1 s retry (default 8): each 503 within a few seconds instead of 13-16 (docs/service.md)
        server = start_server(state.uri, tmp_path, extra_env={"GRAPHMEM_SERVER_RETRY_SECONDS": 1})
        game = f"restart-{uuid.uuid4().hex[:8]}"
        header, log = small_game(game)
        with server.client() as engine:
            assert engine.post("/games", json=header).status_code == 201
            assert engine.post(f"/games/{game}/events", json={"events": log[:6], "after": 0}).status_code == 200
            rest = {"events": log[6:], "after": 6}
            with ThreadPoolExecutor(1) as pool:  # Neo4j stops while the rest of the game is being added
                in_flight = pool.submit(engine.post, f"/games/{game}/events", json=rest)
                local_neo4j.stop(home)
                first = in_flight.result()
            assert first.status_code in (200, 503), first.text
            if first.status_code == 503:
                assert first.json()["error"].startswith("neo4j_") and state.uri in first.json()["reason"]
            asked = time.monotonic()
            down = engine.post(f"/games/{game}/events", json=rest)
            assert down.status_code == 503, down.text
            assert time.monotonic() - asked < 10  # the 1 s retry; the default 8 s answers after 13-16 s
            assert down.json()["error"] == "neo4j_unavailable" and state.uri in down.json()["reason"]
            assert httpx.get(server.url + "/ready", timeout=60).status_code == 503
            local_neo4j.start(home, port=port, timeout=300)
            again = engine.post(f"/games/{game}/events", json=rest)
            assert again.status_code == 200, again.text  # the same server, no restart
            assert again.json()["total_events"] == len(log)
            # nothing half-written: the batch cut by the stop was stored whole (its resend stores nothing) or not
            # at all (its resend stores all of it); a 200 means it was stored
            whole = len(log) - 6
            assert again.json()["already_stored"] in ((whole,) if first.status_code == 200 else (0, whole))
            assert httpx.get(server.url + "/ready", timeout=60).status_code == 200
    finally:
        if server is not None:
            server.stop()
        local_neo4j.stop(home)


def _outside_address() -> str | None:
    """This machine's address on its outward interface (None when it has only loopback)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # UDP: picks the outward interface, sends nothing
            address = str(s.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


def test_without_an_engine_key_the_server_listens_on_loopback_only_and_says_so(neo4j_uri: str, schema: object,
                                                                               tmp_path: Path) -> None:
    server = start_server(neo4j_uri, tmp_path, key=None, ready=False, args=["--host", "0.0.0.0"])
    try:
        assert httpx.get(server.url + "/health").json() == {"status": "ok", "engine_key": False, "host": "127.0.0.1"}
        assert "no engine key is configured, so it listens on 127.0.0.1 only, not 0.0.0.0" in server.log.read_text()
        assert httpx.get(server.url + "/games", timeout=60).status_code == 200  # the engine's, without credential
        outside = _outside_address()
        if outside is not None:  # nothing answers on the machine's other address
            with pytest.raises(httpx.ConnectError):
                httpx.get(f"http://{outside}:{server.url.rsplit(':', 1)[1]}/health", timeout=5)
    finally:
        server.stop()


def test_serve_exits_0_when_stopped_1_when_it_cannot_listen_and_2_for_a_bad_flag(server: Server) -> None:
    # README: exit codes 0 (ok), 1 (failure, one line saying what and where), 2 (usage); uvicorn's own is 3
    port = int(server.url.rsplit(":", 1)[1])
    serve = [sys.executable, "-m", "graphmem.cli", "serve"]
    taken = subprocess.run([*serve, "--port", str(port)], capture_output=True, text=True, timeout=120, env=server.env)
    assert taken.returncode == 1, taken.stderr
    assert f"Error: graphmem serve cannot listen on 127.0.0.1:{port}: Address already in use" in taken.stderr
    # one line: no banner saying it serves there before it (it printed "graphmem serve: http://127.0.0.1:PORT ...")
    assert len(taken.stderr.strip().splitlines()) == 1, taken.stderr
    assert "Traceback" not in taken.stderr
    taken_two = subprocess.run([*serve, "--port", str(port), "--workers", "2"], capture_output=True, text=True,
                               timeout=120, env=server.env)
    assert taken_two.returncode == 1 and "cannot listen on" in taken_two.stderr, taken_two.stderr
    bad = subprocess.run([*serve, "--port", "70000"], capture_output=True, text=True, timeout=120, env=server.env)
    assert bad.returncode == 2 and "Invalid value for '--port'" in bad.stderr, bad.stderr
    for stop in (signal.SIGTERM, signal.SIGINT):
        free = free_port()
        running = subprocess.Popen([*serve, "--port", str(free)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   env=server.env, text=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{free}/health", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.3)
        running.send_signal(stop)
        _, err = running.communicate(timeout=120)
        assert running.returncode == 0, (stop, running.returncode, err[-2000:])
