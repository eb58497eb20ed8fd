"""POST /games with several Neo4j targets (docs/service.md#many-games-several-neo4j-targets): a header whose game id
or series name is not one graphmem takes is refused (422 naming the field) before any target is asked where the game
goes. A lone surrogate in the series name was sent to every target to look the series up, where a single target
answers 422 from the header's check. The app runs in-process over two targets: the session's Neo4j and one that
does not answer (where a valid new game waits for it: 503), so the refusal shows that nothing asked them."""

from __future__ import annotations

import json
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphmem.settings.model import Target
from graphmem.targets import Targets

pytestmark = [pytest.mark.neo4j]
SMALL = Path(__file__).resolve().parents[2] / "examples" / "small-game.jsonl"


@pytest.fixture(scope="module")
def two_targets(neo4j_uri: str, memory: Any) -> Iterator[TestClient]:
    """The app over targets 'a' (the session's Neo4j) and 'b' (a port nobody listens on), no engine key."""
    from graphmem.server.http import create_app

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        dead = f"bolt://127.0.0.1:{closed.getsockname()[1]}"
    settings = memory.settings.with_overrides(engine_key=None, targets={
        "a": Target.model_validate({"uri": neo4j_uri}), "b": Target.model_validate({"uri": dead})})
    targets = Targets.connect(settings, check=False, retry_seconds=0)
    try:
        yield TestClient(create_app(targets, warm=False))
    finally:
        targets.close()


def header(game: str, series: dict[str, Any] | None = None) -> str:
    first = json.loads(SMALL.read_text(encoding="utf-8").splitlines()[0])
    return json.dumps({**first, "game": game, **({"series": series} if series else {})})  # a lone surrogate: \ud83d


@pytest.mark.parametrize("key", [None, "a-key"], ids=["without-key", "with-key"])
@pytest.mark.parametrize(("game", "series", "field"), [
    ("ok", {"name": "tour\ud83d", "position": 1}, "series.name"),
    ("ok", {"name": "a b", "position": 1}, "series.name"),
    ("g\ud83d", None, "game"),
], ids=["series-lone-surrogate", "series-space", "game-lone-surrogate"])
def test_a_header_refused_on_one_target_is_refused_alike_on_several(
        two_targets: TestClient, game: str, series: dict[str, Any] | None, field: str, key: str | None) -> None:
    game = f"{game}-{uuid.uuid4().hex[:6]}" if game == "ok" else game
    headers = {"content-type": "application/json", **({"Idempotency-Key": f"{key}-{uuid.uuid4()}"} if key else {})}
    answer = two_targets.post("/games", content=header(game, series), headers=headers)
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == field, answer.json()
    valid = two_targets.post("/games", content=header(f"new-{uuid.uuid4().hex[:6]}"), headers=headers)
    assert valid.status_code == 503 and "'b'" in valid.json()["reason"], valid.text  # a valid one asks both targets
