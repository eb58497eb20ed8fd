"""MemoryService, the in-process API: a live game fed event by event ends up exactly as the same log ingested
from a file, bad events lose nothing already stored, and a restarted process reopens a game without duplicates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import neo4j
import pytest

from graphmem import MemoryService
from graphmem.errors import InvalidGameLog, NotFound
from graphmem.ingest.records import scope_token
from graphmem.settings import Settings

pytestmark = pytest.mark.neo4j
SMALL = Path(__file__).resolve().parents[2] / "examples" / "small-game.jsonl"


def small_game(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in SMALL.read_text(encoding="utf-8").splitlines()]
    return {**lines[0], "game": game}, lines[1:]


@pytest.fixture()
def service(driver: neo4j.Driver, neo4j_uri: str, schema: object, embedder: object,
            params: object) -> MemoryService:
    return MemoryService(driver, settings=Settings(uri=neo4j_uri), params=params,  # type: ignore[arg-type]
                         embedder=embedder)  # type: ignore[arg-type]


def memories(driver: neo4j.Driver, game: str) -> dict[str, dict[str, Any]]:
    records = driver.execute_query("MATCH (m:Memory {game: $game}) RETURN m", game=game).records
    out = {}
    for r in records:
        props = dict(r["m"])
        for key in ("uid", "game", "embedding"):
            props.pop(key)
        assert props.pop("scope") == scope_token(game, props["owner"])  # derives from the game id, like the uid
        out[r["m"]["uid"].split("/", 1)[1]] = props
    return out


def shape(driver: neo4j.Driver, game: str) -> list[tuple[str, str, str]]:
    records = driver.execute_query(
        "MATCH (a {game: $game})-[r]->(b) RETURN labels(a)[0] AS a, type(r) AS r, labels(b)[0] AS b",
        game=game).records
    return sorted((x["a"], x["r"], x["b"]) for x in records)


def test_a_live_game_fed_event_by_event_equals_the_same_log_ingested_from_a_file(
        service: MemoryService, driver: neo4j.Driver, tmp_path: Path) -> None:
    header, events = small_game("live-batch")
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [header, *events]), encoding="utf-8")
    service.ingest(path)
    live_header, _ = small_game("live-stream")
    service.start_game(live_header)
    for event in events:
        service.add_event("live-stream", event)
    assert memories(driver, "live-stream") == memories(driver, "live-batch")
    assert shape(driver, "live-stream") == shape(driver, "live-batch")
    assert [g["decayed_to"] for g in service.games() if g["game"] in ("live-stream", "live-batch")] == [7, 7]


def test_a_bad_event_is_rejected_and_the_events_before_it_are_kept(service: MemoryService,
                                                                    driver: neo4j.Driver) -> None:
    header, events = small_game("live-bad")
    service.start_game(header)
    bad = {"kind": "say", "speaker": "Nobody", "to": ["Marcus"], "channel": "private", "text": "hi"}
    with pytest.raises(InvalidGameLog, match="unknown player 'Nobody'"):
        service.add_events("live-bad", [events[0], bad, events[1]])
    stored = driver.execute_query("MATCH (e:Event {game: 'live-bad'}) RETURN collect(e.id) AS ids").records[0]["ids"]
    assert stored == ["role-sarah"]
    report = service.add_events("live-bad", events[1:])
    assert report.events == len(events) - 1


def test_a_restarted_process_reopens_a_game_without_writing_anything_new(
        service: MemoryService, driver: neo4j.Driver, neo4j_uri: str, embedder: object, params: object) -> None:
    header, events = small_game("live-reopen")
    service.start_game(header, history=events[:12])
    service.advance_phase("live-reopen")
    restarted = MemoryService(driver, settings=Settings(uri=neo4j_uri), params=params,  # type: ignore[arg-type]
                              embedder=embedder)  # type: ignore[arg-type]
    with pytest.raises(NotFound, match="start_game"):
        restarted.add_events("live-reopen", events[12:])
    before = memories(driver, "live-reopen")
    replay = restarted.start_game(header, history=events[:12])
    assert (replay.nodes_created, replay.relationships_created) == (0, 0)
    assert memories(driver, "live-reopen") == before
    restarted.add_events("live-reopen", events[12:])
    assert len(memories(driver, "live-reopen")) > len(before)


def test_the_readme_example_game_recalls_what_was_said_and_the_thought(service: MemoryService) -> None:
    service.start_game({"kind": "game", "format": "graphmem/1", "game": "readme-g7", "players": [
        {"name": "Marcus", "role": "faithful", "profile": "analytical"},
        {"name": "Sarah", "role": "traitor"}, {"name": "Eleanor", "role": "faithful"}]})
    service.add_events("readme-g7", [
        {"kind": "phase", "day": 1, "name": "social"},
        {"kind": "say", "speaker": "Sarah", "to": ["Marcus"], "channel": "private",
         "text": "Eleanor is a traitor, I am sure of it."}])
    service.advance_phase("readme-g7")
    uid = service.push_thought("readme-g7", "Marcus", "Ask Eleanor where she was last night.", priority=0.8)
    block = service.recall("readme-g7", "Marcus", topic="Eleanor").prompt()
    lines = block.splitlines()
    assert lines[:3] == ["=== ACTIVE THOUGHTS ===", "Ask Eleanor where she was last night.",
                         "=== END ACTIVE THOUGHTS ==="]
    assert any("[Sarah told you]" in line and "Eleanor is a traitor, I am sure of it." in line for line in lines)
    assert uid == "readme-g7/thought/Marcus/api-1"


def test_working_memory_keeps_the_highest_priorities_within_capacity(service: MemoryService,
                                                                     driver: neo4j.Driver) -> None:
    header, events = small_game("wm-capacity")
    service.start_game(header, history=events[:3])
    for i, priority in enumerate([0.1, 0.9, 0.5, 0.7, 0.3, 0.8]):  # Marcus (analytical) holds 5
        service.push_thought("wm-capacity", "Marcus", f"thought {i}", priority=priority)
    held = driver.execute_query("MATCH (t:Thought {game: 'wm-capacity', player: 'Marcus', active: true}) "
                                "RETURN collect(t.content) AS held").records[0]["held"]
    assert sorted(held) == ["thought 1", "thought 2", "thought 3", "thought 4", "thought 5"]
    with pytest.raises(NotFound, match="no player 'Nobody'"):
        service.push_thought("wm-capacity", "Nobody", "x")
    with pytest.raises(NotFound, match="no game 'nosuch'"):
        service.push_thought("nosuch", "Marcus", "x")
