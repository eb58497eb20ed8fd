"""A scripted Traitors game played against a running ``graphmem serve``, as a game engine in any language would:
plain HTTP and JSON (httpx only, no graphmem import).

    graphmem serve &                                   # or with GRAPHMEM_ENGINE_KEY set
    python examples/engine/play.py --url http://127.0.0.1:8750 [--key KEY]

The engine creates the game, announces the roles, mints a player token for each player's agent, and feeds the
events phase by phase (each batch with ``after``, the number of events it sent before). Before each scripted
turn, the speaking player's agent asks its memory over MCP (``tools/call recall`` at ``/mcp`` with its own
token), as an LLM agent would before it speaks. At the end the tokens stop working. Exit code 0 when every step
answered as expected.
"""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from typing import Any

import httpx

PLAYERS = ["Ava", "Ben", "Cleo", "Dev", "Eli"]
ROLES = {"Ava": "traitor", "Ben": "faithful", "Cleo": "faithful", "Dev": "traitor", "Eli": "faithful"}

# The script: each phase, then the turns in it (a turn is one player's event, taken after that player recalls).
SCRIPT: list[tuple[dict[str, Any], list[tuple[str, str, dict[str, Any]]]]] = [
    ({"kind": "phase", "day": 1, "name": "breakfast"}, [
        ("Ben", "the castle", {"kind": "say", "speaker": "Ben", "to": "all", "channel": "public",
                               "text": "Good morning all. Let's keep our eyes open today."}),
    ]),
    ({"kind": "phase", "day": 1, "name": "social"}, [
        ("Ava", "Cleo", {"kind": "say", "speaker": "Ava", "to": ["Cleo"], "channel": "private",
                         "text": "Eli is a traitor, I am sure of it. He avoided every question."}),
        ("Cleo", "Eli", {"kind": "say", "speaker": "Cleo", "to": ["Ben"], "channel": "private",
                         "text": "Ava told me Eli is a traitor. What do you think?"}),
        ("Dev", "Ava", {"kind": "say", "speaker": "Dev", "to": "all", "channel": "traitors",
                        "text": "Keep pushing Eli. The faithful will follow."}),
    ]),
    ({"kind": "phase", "day": 1, "name": "roundtable"}, [
        ("Ben", "Eli", {"kind": "say", "speaker": "Ben", "to": "all", "channel": "roundtable",
                        "text": "I'm not sure about Eli. Ava, why are you so certain?"}),
        ("Eli", "Ava", {"kind": "say", "speaker": "Eli", "to": "all", "channel": "roundtable",
                        "text": "I'm a faithful. Ava is a traitor, she is deflecting onto me."}),
        ("Ava", "Eli", {"kind": "vote", "voter": "Ava", "target": "Eli", "ballot": "banish"}),
        ("Ben", "Ava", {"kind": "vote", "voter": "Ben", "target": "Ava", "ballot": "banish"}),
        ("Cleo", "Eli", {"kind": "vote", "voter": "Cleo", "target": "Eli", "ballot": "banish"}),
        ("Dev", "Eli", {"kind": "vote", "voter": "Dev", "target": "Eli", "ballot": "banish"}),
        ("Eli", "Ava", {"kind": "vote", "voter": "Eli", "target": "Ava", "ballot": "banish"}),
    ]),
    ({"kind": "phase", "day": 1, "name": "banishment"}, [
        ("Cleo", "Eli", {"kind": "banish", "player": "Eli", "votes": 3, "role_revealed": "faithful"}),
    ]),
    ({"kind": "phase", "day": 1, "name": "night"}, [
        ("Dev", "Ben", {"kind": "vote", "voter": "Dev", "target": "Ben", "ballot": "murder"}),
        ("Ava", "Ben", {"kind": "murder", "victim": "Ben", "by": ["Ava", "Dev"],
                        "witnesses": ["Ava", "Dev", "Ben", "Eli"]}),  # the engine still lists the banished Eli
    ]),
    ({"kind": "phase", "day": 2, "name": "breakfast"}, [
        ("Cleo", "Ava", {"kind": "say", "speaker": "Cleo", "to": "all", "channel": "public",
                         "text": "Ben is gone and Eli was faithful. Ava, you led us to banish Eli."}),
    ]),
]


class Engine:
    """The engine's side of the protocol: JSON over HTTP, and MCP's JSON-RPC for the agents' recalls."""

    def __init__(self, url: str, key: str | None) -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.http = httpx.Client(base_url=url, headers=headers, timeout=120)
        self.url = url
        self.sent = 0  # events sent so far: the `after` of the next batch

    def call(self, method: str, path: str, expect: int = 200, **kwargs: Any) -> Any:
        answer = self.http.request(method, path, **kwargs)
        if answer.status_code != expect:
            raise SystemExit(f"{method} {path}: expected {expect}, got {answer.status_code}: {answer.text}")
        return answer.json()

    def send(self, game: str, events: list[dict[str, Any]]) -> dict[str, Any]:
        report: dict[str, Any] = self.call("POST", f"/games/{game}/events", json={"events": events, "after": self.sent})
        self.sent = report["total_events"]
        for dropped in report["dropped"]:
            print(f"  (graphmem left out {dropped['player']} of {dropped['field']}: {dropped['reason']})")
        return report

    def recall(self, token: str, topic: str, participants: list[str]) -> dict[str, Any]:
        """An agent's recall over MCP (stateless streamable HTTP: one JSON-RPC request, a JSON answer)."""
        answer = httpx.post(f"{self.url}/mcp", timeout=120, headers={
            "Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"},
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                  "params": {"name": "recall", "arguments": {"topic": topic, "participants": participants, "k": 5}}})
        answer.raise_for_status()
        result: dict[str, Any] = answer.json()["result"]
        return result


def play(url: str, key: str | None, game: str) -> int:
    engine = Engine(url, key)
    print(f"graphmem at {url}: {engine.call('GET', '/health')['status']}")
    # 1. The game, then the roles as the engine announces them (before or after the first events).
    engine.call("POST", "/games", expect=201, json={
        "kind": "game", "format": "graphmem/1", "game": game, "title": "A scripted example game",
        "players": [{"name": p} for p in PLAYERS]})
    engine.call("PUT", f"/games/{game}/roles", json={"roles": ROLES})
    # 2. One token per agent: it reaches its own player's memory and nothing else.
    tokens = {p: engine.call("POST", f"/games/{game}/players/{p}/tokens", expect=201)["token"] for p in PLAYERS}
    gone: set[str] = set()
    recalls = 0
    for phase, turns in SCRIPT:
        engine.send(game, [phase])
        print(f"-- day {phase['day']}, {phase['name']}")
        for player, topic, event in turns:
            if player not in gone:
                result = engine.recall(tokens[player], topic, [p for p in PLAYERS if p != player and p not in gone])
                if result.get("isError"):
                    raise SystemExit(f"{player}'s recall failed: {result['content'][0]['text']}")
                memories = result["structuredContent"]["memories"]
                recalls += 1
                shown = memories[0]["line"] if memories else "(nothing comes to mind)"
                print(f"  {player} recalls about {topic}: {len(memories)} memories; first: {shown[:90]}")
            engine.send(game, [event])
            if event["kind"] == "banish":
                gone.add(event["player"])
            if event["kind"] == "murder":
                gone.add(event["victim"])
    # 3. The end: the game is complete and the agents' tokens stop working.
    engine.call("POST", f"/games/{game}/end", json={"winner": "traitors", "after": engine.sent})
    refused = httpx.post(f"{url}/games/{game}/players/Cleo/recall", json={"topic": "Ava"}, timeout=60,
                         headers={"Authorization": f"Bearer {tokens['Cleo']}"})
    if refused.status_code != 403:
        raise SystemExit(f"a token of an ended game should be refused with 403, got {refused.status_code}")
    row = next(g for g in engine.call("GET", "/games") if g["game"] == game)
    print(f"game {game} ended: {engine.sent} events, phase {row['last_phase']}, {recalls} recalls over MCP; "
          f"Cleo's token now gets {refused.status_code}: {refused.json()['reason']}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("GRAPHMEM_URL", "http://127.0.0.1:8750"))
    parser.add_argument("--key", default=os.environ.get("GRAPHMEM_ENGINE_KEY"), help="the engine key, if set")
    parser.add_argument("--game", default=f"example-{uuid.uuid4().hex[:8]}", help="the game id (default: a new one)")
    args = parser.parse_args()
    return play(args.url, args.key, args.game)


if __name__ == "__main__":
    sys.exit(main())
