"""MemoryService, the in-process API: a live game fed event by event ends up exactly as the same log ingested
from a file, bad events lose nothing already stored, and a restarted process reopens a game without duplicates."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import neo4j
import pytest

from graphmem import MemoryService
from graphmem.errors import GameConflict, InvalidGameLog, NotFound, UsageProblem
from graphmem.settings import Settings
from graphmem.store.games import delete_game
from graphmem.store.keys import scope_token

pytestmark = pytest.mark.neo4j
SMALL = Path(__file__).resolve().parents[2] / "examples" / "small-game.jsonl"


def small_game(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in SMALL.read_text(encoding="utf-8").splitlines()]
    return {**lines[0], "game": game}, lines[1:]


def fresh(name: str) -> str:
    """A game id no earlier run stored (the tests may run against a database that keeps games)."""
    return f"{name}-{uuid.uuid4().hex[:8]}"


def stored_events(driver: neo4j.Driver, game: str) -> dict[str, tuple[str, list[str]]]:
    """{event id: (text, sorted witnesses)} of a stored game."""
    records = driver.execute_query(
        "MATCH (e:Event {game: $game}) OPTIONAL MATCH (e)-[:WITNESSED_BY]->(p:Player) "
        "RETURN e.id AS id, e.text AS text, collect(DISTINCT p.name) AS witnesses", game=game).records
    return {r["id"]: (r["text"], sorted(r["witnesses"])) for r in records}


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
    batch, stream = fresh("live-batch"), fresh("live-stream")
    header, events = small_game(batch)
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [header, *events]), encoding="utf-8")
    service.ingest(path)
    live_header, _ = small_game(stream)
    service.start_game(live_header)
    for event in events:
        service.add_event(stream, event)
    assert memories(driver, stream) == memories(driver, batch)
    assert shape(driver, stream) == shape(driver, batch)
    assert [g["decayed_to"] for g in service.games() if g["game"] in (stream, batch)] == [7, 7]


def test_a_bad_event_is_rejected_and_the_events_before_it_are_kept(service: MemoryService,
                                                                    driver: neo4j.Driver) -> None:
    game = fresh("live-bad")
    header, events = small_game(game)
    service.start_game(header)
    bad = {"kind": "say", "speaker": "Nobody", "to": ["Marcus"], "channel": "private", "text": "hi"}
    with pytest.raises(InvalidGameLog, match="unknown player 'Nobody'"):
        service.add_events(game, [events[0], bad, events[1]])
    stored = driver.execute_query("MATCH (e:Event {game: $game}) RETURN collect(e.id) AS ids",
                                  game=game).records[0]["ids"]
    assert stored == ["role-sarah"]
    report = service.add_events(game, events[1:])
    assert report.events == len(events) - 1


def test_a_restarted_process_reopens_a_game_without_writing_anything_new(
        service: MemoryService, driver: neo4j.Driver, neo4j_uri: str, embedder: object, params: object) -> None:
    game = fresh("live-reopen")
    header, events = small_game(game)
    service.start_game(header, history=events[:12])
    service.advance_phase(game)
    restarted = MemoryService(driver, settings=Settings(uri=neo4j_uri), params=params,  # type: ignore[arg-type]
                              embedder=embedder)  # type: ignore[arg-type]
    with pytest.raises(NotFound, match="start_game"):
        restarted.add_events(game, events[12:])
    before = memories(driver, game)
    replay = restarted.start_game(header, history=events[:12])
    assert (replay.nodes_created, replay.relationships_created) == (0, 0)
    assert memories(driver, game) == before
    restarted.add_events(game, events[12:])
    assert len(memories(driver, game)) > len(before)


def test_the_readme_example_game_recalls_what_was_said_and_the_thought(service: MemoryService,
                                                                      driver: neo4j.Driver) -> None:
    delete_game(driver, None, "readme-g7")  # the example is refused when the game is already stored (README)
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
    game = fresh("wm-capacity")
    header, events = small_game(game)
    service.start_game(header, history=events[:3])
    for i, priority in enumerate([0.1, 0.9, 0.5, 0.7, 0.3, 0.8]):  # Marcus (analytical) holds 5
        service.push_thought(game, "Marcus", f"thought {i}", priority=priority)
    held = driver.execute_query("MATCH (t:Thought {game: $game, player: 'Marcus', active: true}) "
                                "RETURN collect(t.content) AS held", game=game).records[0]["held"]
    assert sorted(held) == ["thought 1", "thought 2", "thought 3", "thought 4", "thought 5"]
    with pytest.raises(NotFound, match="no player 'Nobody'"):
        service.push_thought(game, "Nobody", "x")
    with pytest.raises(UsageProblem, match="content is empty"):
        service.push_thought(game, "Marcus", "  ")


def test_an_eliminated_player_gets_no_thought(service: MemoryService, driver: neo4j.Driver) -> None:
    game = fresh("wm-dead")
    header, events = small_game(game)
    service.start_game(header, history=events)
    gone = driver.execute_query("MATCH (p:Player {game: $game}) WHERE p.status <> 'alive' "
                                "RETURN p.name AS name, p.status AS status ORDER BY name", game=game).records
    assert gone, "the small game eliminates somebody"
    with pytest.raises(UsageProblem, match=f"{gone[0]['name']} was {gone[0]['status']} in game"):
        service.push_thought(game, gone[0]["name"], "Still thinking.")
    assert driver.execute_query("MATCH (t:Thought {game: $game, player: $p, trigger: 'api'}) RETURN count(t) AS n",
                                game=game, p=gone[0]["name"]).records[0]["n"] == 0
    with pytest.raises(NotFound, match="no game 'nosuch'"):
        service.push_thought("nosuch", "Marcus", "x")


def another_process(driver: neo4j.Driver, neo4j_uri: str, embedder: object, params: object) -> MemoryService:
    return MemoryService(driver, settings=Settings(uri=neo4j_uri), params=params,  # type: ignore[arg-type]
                         embedder=embedder)  # type: ignore[arg-type]


def test_a_restart_that_forgets_the_history_is_refused_before_it_writes(
        service: MemoryService, driver: neo4j.Driver, neo4j_uri: str, embedder: object, params: object) -> None:
    # Without the history, the restarted process would number its events from 1 again and merge them into the
    # stored events with the same ids (a user saw a new remark vanish into an old event with two speakers).
    game = fresh("live-amnesia")
    header, events = small_game(game)
    service.start_game(header, history=events[:12])
    before = stored_events(driver, game)
    restarted = another_process(driver, neo4j_uri, embedder, params)
    with pytest.raises(GameConflict, match=r"holds 12 events in Neo4j, and history has 0"):
        restarted.start_game(header)
    with pytest.raises(GameConflict, match=r"holds 12 events in Neo4j, and history has 5"):
        restarted.start_game(header, history=events[:5])
    with pytest.raises(NotFound):  # a refused game is not open
        restarted.add_events(game, events[12:13])
    assert stored_events(driver, game) == before


def test_a_reopen_with_another_header_or_other_events_is_refused(
        service: MemoryService, driver: neo4j.Driver, neo4j_uri: str, embedder: object, params: object) -> None:
    game = fresh("live-other")
    header, events = small_game(game)
    service.start_game(header, history=events[:12])
    before = stored_events(driver, game)
    restarted = another_process(driver, neo4j_uri, embedder, params)
    newcomer = {**header, "players": [*header["players"], {"name": "Newbie", "role": "faithful"}]}
    with pytest.raises(GameConflict, match="holds 12 events in Neo4j, as many as this process after this batch, "
                                           "but different ones: the header or the events differ"):
        restarted.start_game(newcomer, history=events[:12])
    swapped = [{**p, "role": "traitor" if p["role"] != "traitor" else "faithful"} for p in header["players"]]
    with pytest.raises(GameConflict):
        restarted.start_game({**header, "players": swapped}, history=events[:12])
    edited = [*events[:11], {**events[11], "witnesses": []} if "witnesses" in events[11] else
              {**events[11], "id": "edited"}]
    with pytest.raises(GameConflict):
        restarted.start_game(header, history=edited)
    assert stored_events(driver, game) == before
    reopened = restarted.start_game(header, history=events[:14])  # the full history and two new events
    assert reopened.events == 14 and set(before) < set(stored_events(driver, game))


def test_two_processes_on_one_game_the_second_writer_is_refused(
        service: MemoryService, driver: neo4j.Driver, neo4j_uri: str, embedder: object, params: object) -> None:
    game = fresh("live-twice")
    header, events = small_game(game)
    service.start_game(header, history=events[:12])
    other = another_process(driver, neo4j_uri, embedder, params)
    other.start_game(header, history=events[:12])
    service.add_events(game, [events[12]])
    after_first = stored_events(driver, game)
    mine = {"kind": "say", "speaker": "Marcus", "to": ["Sarah"], "channel": "private", "text": "Process two here."}
    with pytest.raises(GameConflict, match="holds 13 events in Neo4j, but this process expected 12 before this "
                                           "batch: another process added events to it"):
        other.add_events(game, [mine])
    with pytest.raises(GameConflict):  # and every later batch of that process
        other.add_events(game, [events[13]])
    assert stored_events(driver, game) == after_first
    assert all(text != "Process two here." for text, _ in after_first.values())
    service.add_events(game, [events[13]])  # the first process goes on


def test_a_game_ingested_from_a_file_cannot_be_fed_live(service: MemoryService, driver: neo4j.Driver,
                                                         tmp_path: Path) -> None:
    game = fresh("file-game")
    header, events = small_game(game)
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [header, *events[:12]]), encoding="utf-8")
    service.ingest(path)
    before = stored_events(driver, game)
    with pytest.raises(GameConflict, match="stored from a log file"):
        service.start_game(header, history=events[:12])
    assert stored_events(driver, game) == before


def test_the_end_event_marks_a_live_game_ended(service: MemoryService, driver: neo4j.Driver) -> None:
    game = fresh("live-end")
    header, events = small_game(game)
    service.start_game(header, history=events[:3])
    assert next(g for g in service.games() if g["game"] == game)["complete"] is False
    service.add_events(game, [{"kind": "end", "winner": "faithful"}])
    assert next(g for g in service.games() if g["game"] == game)["complete"] is True
