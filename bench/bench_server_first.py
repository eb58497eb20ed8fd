"""Two checks of ``graphmem serve`` against a running Neo4j (docs/service.md), printed as one line each:

- ``ready``: once ``/ready`` says 200, the first batch (12 events of examples/small-game.jsonl) and the first three
  recalls of a fresh game, against the same for a second fresh game (the warm-up should make them alike);
- ``race``: ``--workers 2`` and 36 one-event batches sent without ``after`` by 12 threads, ``runs`` times: how many
  were stored (every one should be) and the first refusals.

``python -m bench.bench_server_first URI ready|race [RUNS]``; a Neo4j restarted just before makes both harder (no
plan cached, indexes cold).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tests.integration.server_process import Server, start_server

SMALL = Path(__file__).resolve().parents[1] / "examples" / "small-game.jsonl"


def _game(server: Server, lines: list[dict[str, Any]]) -> str:
    game = f"bench-{uuid.uuid4().hex[:6]}"
    with server.client() as client:
        assert client.post("/games", json={**lines[0], "game": game}).status_code == 201
    return game


def ready(server: Server) -> str:
    """The first batch and recalls of two fresh games after /ready, in seconds."""
    lines = [json.loads(line) for line in SMALL.read_text(encoding="utf-8").splitlines()]
    out = []
    with server.client() as client:
        for _ in range(2):
            game = _game(server, lines)
            started = time.perf_counter()
            answer = client.post(f"/games/{game}/events", json={"events": lines[1:13], "after": 0})
            batch = time.perf_counter() - started
            assert answer.status_code == 200, answer.text
            recalls = []
            for topic in ("Thomas", "traitor", "votes"):
                started = time.perf_counter()
                answer = client.post(f"/games/{game}/players/Marcus/recall", json={"topic": topic})
                recalls.append(round(time.perf_counter() - started, 3))
                assert answer.status_code == 200, answer.text
            out.append(f"batch {batch:.3f} s, recalls {recalls} s")
    return f"first game: {out[0]}; second game: {out[1]}"


def race(server: Server, runs: int) -> str:
    """Batches without ``after`` stored out of those sent, and the first refusals."""
    lines = [json.loads(line) for line in SMALL.read_text(encoding="utf-8").splitlines()]
    names = [p["name"] for p in lines[0]["players"]]
    stored, refused = 0, list[str]()
    for _ in range(runs):
        game = _game(server, lines)

        def send(i: int, game: str = game) -> tuple[int, str]:
            say = {"kind": "say", "id": f"r{i}", "speaker": names[i % len(names)], "to": "all", "channel": "public",
                   "text": f"Remark {i}."}
            with server.client() as client:
                answer = client.post(f"/games/{game}/events", json={"events": [say]})
                return answer.status_code, answer.text[:200]

        with ThreadPoolExecutor(12) as pool:
            answers = list(pool.map(send, range(36)))
        stored += sum(status == 200 for status, _ in answers)
        refused.extend(text for status, text in answers if status != 200)
    return f"{stored} of {36 * runs} batches stored" + (f"; first refusal: {refused[0]}" if refused else "")


def main(argv: list[str]) -> None:
    uri, what = argv[0], argv[1]
    runs = int(argv[2]) if len(argv) > 2 else 5
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(uri, Path(folder), args=["--workers", "2"] if what == "race" else [])
        try:
            print(ready(server) if what == "ready" else race(server, runs))
        finally:
            server.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
