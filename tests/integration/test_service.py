"""MemoryService, the in-process API: a live game fed event by event ends up exactly as the same log ingested
from a file, bad events lose nothing already stored, and a restarted process reopens a game without duplicates."""

from __future__ import annotations

import gc
import json
import time
from pathlib import Path
from typing import Any

import neo4j
import pytest

from graphmem import MemoryService
from graphmem.errors import GameConflict, InvalidGameLog, NotFound, UsageProblem
from graphmem.settings import Settings
from graphmem.store.games import delete_game
from graphmem.store.keys import scope_token
from tests.integration.helpers import fresh, recall_counts

pytestmark = pytest.mark.neo4j
SMALL = Path(__file__).resolve().parents[2] / "examples" / "small-game.jsonl"


def small_game(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in SMALL.read_text(encoding="utf-8").splitlines()]
    return {**lines[0], "game": game}, lines[1:]



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


def test_a_live_game_fed_event_by_event_through_two_processes_equals_the_same_log_ingested_from_a_file(
        service: MemoryService, driver: neo4j.Driver, tmp_path: Path, neo4j_uri: str, embedder: object,
        params: object) -> None:
    batch, stream = fresh("live-batch"), fresh("live-stream")
    header, events = small_game(batch)
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [header, *events]), encoding="utf-8")
    service.ingest(path)
    live_header, _ = small_game(stream)
    other = another_process(driver, neo4j_uri, embedder, params)
    service.start_game(live_header)
    for i, event in enumerate(events):  # two processes take turns: neither holds the game between calls
        (service if i % 3 else other).add_event(stream, event)
    assert memories(driver, stream) == memories(driver, batch)
    assert shape(driver, stream) == shape(driver, batch)
    assert [g["decayed_to"] for g in service.games() if g["game"] in (stream, batch)] == [7, 7]
    assert service.live.rebuilds + service.live.catch_ups > 1 and other.live.catch_ups > 0  # took the other's batches


def test_a_bad_batch_is_refused_whole_naming_the_event_of_the_batch_and_its_id(service: MemoryService,
                                                                              driver: neo4j.Driver) -> None:
    game = fresh("live-bad")
    header, events = small_game(game)
    service.start_game(header)
    bad = {"kind": "say", "id": "hello-1", "speaker": "Nobody", "to": ["Marcus"], "channel": "private", "text": "hi"}
    with pytest.raises(InvalidGameLog) as refused:
        service.add_events(game, [events[0], bad, events[1]])
    [problem] = refused.value.problems
    assert (problem.index, problem.event_id, problem.field) == (1, "hello-1", "speaker")
    assert str(problem).startswith("event 1 of this batch (id 'hello-1'), field 'speaker': unknown player 'Nobody'")
    assert "line" not in str(refused.value)
    stored = driver.execute_query("MATCH (e:Event {game: $game}) RETURN collect(e.id) AS ids",
                                  game=game).records[0]["ids"]
    assert stored == []  # nothing of the batch, not even the valid event before the bad one
    report = service.add_events(game, events)
    assert (report.events, report.total_events) == (len(events), len(events))


def test_a_refusal_names_earlier_events_of_the_game_not_lines(service: MemoryService) -> None:
    game = fresh("live-place")
    header, events = small_game(game)
    service.start_game(header, history=events[:26])  # Priya is murdered by event 25
    late = {"kind": "say", "speaker": "Priya", "to": "all", "channel": "public", "text": "I am back."}
    with pytest.raises(InvalidGameLog) as refused:
        service.add_events(game, [late])
    assert "Priya was murdered at event 25 of the game (day 2, breakfast): an eliminated player cannot speak" in \
        str(refused.value.problems[0])


def test_an_eliminated_witness_named_by_the_engine_is_dropped_and_reported(service: MemoryService,
                                                                          driver: neo4j.Driver) -> None:
    game = fresh("live-gone")
    header, events = small_game(game)
    service.start_game(header, history=events[:26])  # Thomas banished (event 18), Priya murdered (event 25)
    seen = {"kind": "observe", "id": "o-1", "observers": ["Marcus"], "text": "Sarah looked pleased.",
            "witnesses": ["Marcus", "Thomas", "Sarah", "Priya"], "emotion": {"Priya": {"fear": 0.9}}}
    report = service.add_events(game, [seen])
    assert report.events == 1
    assert [(d.index, d.event_id, d.field, d.player) for d in report.dropped] == [
        (0, "o-1", "witnesses[1]", "Thomas"), (0, "o-1", "witnesses[3]", "Priya"), (0, "o-1", "emotion.Priya", "Priya")]
    assert report.dropped[0].reason.startswith("Thomas was banished at event 18 of the game")
    assert stored_events(driver, game)["o-1"][1] == ["Marcus", "Sarah"]
    with pytest.raises(InvalidGameLog, match="an eliminated player cannot speak"):  # acting is still refused
        service.add_events(game, [{"kind": "say", "speaker": "Thomas", "to": "all", "channel": "public",
                                   "text": "Let me back in."}])


def test_roles_are_set_after_the_game_is_created_before_or_after_its_first_events(service: MemoryService,
                                                                                 driver: neo4j.Driver) -> None:
    game = fresh("live-roles")
    service.start_game({"kind": "game", "format": "graphmem/1", "game": game, "players": [
        {"name": "Ann"}, {"name": "Bob"}, {"name": "Cid", "role": "faithful"}]})
    night = {"kind": "say", "speaker": "Ann", "to": "all", "channel": "traitors", "text": "Only I hear this."}
    with pytest.raises(InvalidGameLog, match="an event on the traitors channel needs the role of Ann, Bob, not set"):
        service.add_events(game, [{"kind": "phase", "day": 1, "name": "social"}, night])
    assert service.add_events(game, [{"kind": "phase", "day": 1, "name": "social"}]).events == 1  # needs no role
    service.set_roles(game, {"Ann": "traitor", "Bob": "faithful"})
    report = service.add_events(game, [night])
    assert report.events == 1 and report.total_events == 2
    roles = {r["name"]: r["role"] for r in driver.execute_query(
        "MATCH (p:Player {game: $game}) RETURN p.name AS name, p.role AS role", game=game).records}
    assert roles == {"Ann": "traitor", "Bob": "faithful", "Cid": "faithful"}
    with pytest.raises(GameConflict, match="holds 2 events, and the role of Bob is set already"):
        service.set_roles(game, {"Bob": "traitor"})
    with pytest.raises(NotFound, match="no player 'Dan'"):
        service.set_roles(game, {"Dan": "traitor"})


def test_a_batch_sent_again_writes_nothing_and_a_batch_after_a_gap_is_refused(service: MemoryService,
                                                                             driver: neo4j.Driver) -> None:
    game = fresh("live-after")
    header, events = small_game(game)
    service.start_game(header)
    first = service.add_events(game, events[:5], after=0)
    before = memories(driver, game)
    again = service.add_events(game, events[:5], after=0)  # the engine lost the answer and sent it again
    assert (again.events, again.already_stored, again.nodes_created, again.total_events) == (0, 5, 0, 5)
    assert memories(driver, game) == before
    overlapping = service.add_events(game, events[3:8], after=3)
    assert (overlapping.already_stored, overlapping.events, overlapping.total_events) == (2, 3, 8)
    with pytest.raises(GameConflict, match=r"holds 8 events, and this batch was sent after 10 events: events 8\.\.9 "
                                           "were never stored"):
        service.add_events(game, events[10:12], after=10)
    with pytest.raises(GameConflict, match="overlaps them with other events"):
        service.add_events(game, [events[9]], after=7)
    assert first.total_events == 5


def test_the_phase_event_and_advance_phase_agree(service: MemoryService, driver: neo4j.Driver) -> None:
    game = fresh("live-phase")
    header, events = small_game(game)
    service.start_game(header, history=events[:5])  # ... phase 2 (day 1, social) is the last event
    assert service.advance_phase(game).to_phase == 2  # decays to the current phase: a no-op here
    with pytest.raises(UsageProblem, match="is live and in phase 2: its phases come from its phase events"):
        service.advance_phase(game, to=3)
    report = service.advance_phase(game, day=1, name="roundtable")  # the phase event, and decay to it
    assert report.to_phase == 3
    service.add_events(game, [events[11]])  # a statement after it lands in phase 3
    row = next(g for g in service.games() if g["game"] == game)
    assert (row["last_phase"], row["decayed_to"]) == (3, 3)
    phase = driver.execute_query("MATCH (e:Event {game: $game, kind: 'say'}) RETURN max(e.phase) AS p",
                                 game=game).records[0]["p"]
    assert phase == 3


def test_another_process_goes_on_with_a_game_without_reopening_it(
        service: MemoryService, driver: neo4j.Driver, neo4j_uri: str, embedder: object, params: object) -> None:
    game = fresh("live-reopen")
    header, events = small_game(game)
    service.start_game(header, history=events[:12])
    restarted = another_process(driver, neo4j_uri, embedder, params)
    before = memories(driver, game)
    replay = restarted.start_game(header, history=events[:12])  # an engine that checks its history: nothing new
    assert (replay.nodes_created, replay.relationships_created, replay.already_stored) == (0, 0, 12)
    assert memories(driver, game) == before
    restarted.add_events(game, events[12:], after=12)
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
    service.advance_phase("readme-g7", day=1, name="roundtable")  # the next phase: memories fade
    row = next(g for g in service.games() if g["game"] == "readme-g7")
    assert (row["last_phase"], row["decayed_to"]) == (2, 2)
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
    game = fresh("live-forget")
    header, events = small_game(game)
    service.start_game(header, history=events[:12])
    before = stored_events(driver, game)
    restarted = another_process(driver, neo4j_uri, embedder, params)
    with pytest.raises(GameConflict, match=r"holds 12 events in Neo4j, and history has 0"):
        restarted.start_game(header)
    with pytest.raises(GameConflict, match=r"holds 12 events in Neo4j, and history has 5"):
        restarted.start_game(header, history=events[:5])
    assert stored_events(driver, game) == before


def test_a_reopen_with_another_header_or_other_events_is_refused(
        service: MemoryService, driver: neo4j.Driver, neo4j_uri: str, embedder: object, params: object) -> None:
    game = fresh("live-other")
    header, events = small_game(game)
    service.start_game(header, history=events[:12])
    before = stored_events(driver, game)
    restarted = another_process(driver, neo4j_uri, embedder, params)
    newcomer = {**header, "players": [*header["players"], {"name": "Zed", "role": "faithful"}]}
    with pytest.raises(GameConflict, match="is stored with another header"):
        restarted.start_game(newcomer, history=events[:12])
    swapped = [{**p, "role": "traitor" if p["role"] == "faithful" else p["role"]} for p in header["players"]]
    with pytest.raises(GameConflict):
        restarted.start_game({**header, "players": swapped}, history=events[:12])
    edited = [*events[:11], {**events[11], "text": "Something else entirely."}]
    with pytest.raises(GameConflict, match="overlaps them with other events"):
        restarted.start_game(header, history=edited)
    assert stored_events(driver, game) == before
    reopened = restarted.start_game(header, history=events[:14])  # the full history and two new events
    assert (reopened.events, reopened.total_events) == (2, 14) and set(before) < set(stored_events(driver, game))


def test_a_second_engine_whose_batch_does_not_follow_the_stored_events_is_refused(
        service: MemoryService, driver: neo4j.Driver, neo4j_uri: str, embedder: object, params: object) -> None:
    game = fresh("live-twice")
    header, events = small_game(game)
    service.start_game(header, history=events[:12])
    other = another_process(driver, neo4j_uri, embedder, params)
    service.add_events(game, [events[12]], after=12)
    after_first = stored_events(driver, game)
    mine = {"kind": "say", "speaker": "Marcus", "to": ["Sarah"], "channel": "private", "text": "Engine two here."}
    with pytest.raises(GameConflict, match="holds 13 events, and this batch .after=12. overlaps them with other "
                                           "events"):
        other.add_events(game, [mine], after=12)
    assert stored_events(driver, game) == after_first
    service.add_events(game, [events[13]], after=13)  # the first engine goes on


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


def test_eight_concurrent_writing_recalls_of_one_player_all_succeed_and_count_every_access(
        service: MemoryService, driver: neo4j.Driver) -> None:
    from concurrent.futures import ThreadPoolExecutor

    game = fresh("live-parallel")
    header, events = small_game(game)
    service.start_game(header, history=events)

    def counts() -> dict[str, int]:
        return recall_counts(driver, game, "Marcus")

    before = counts()
    topics = ["Thomas", "traitor", "Priya", "who voted", "Sarah", "the banishment", "breakfast", "Eleanor"]
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda t: service.recall(game, "Marcus", topic=t, seed=7), topics))
    returned: dict[str, int] = {}
    for result in results:
        assert result.written == len(result.memories) > 0
        for m in result.memories:
            returned[m.uid] = returned.get(m.uid, 0) + 1
    after = counts()
    assert {uid: after[uid] - before[uid] for uid in after if after[uid] != before[uid]} == returned


def test_warm_up_loads_the_model_before_the_first_call(driver: neo4j.Driver, neo4j_uri: str, params: object) -> None:
    from graphmem.embedding import Embedder

    fresh_service = MemoryService(driver, settings=Settings(uri=neo4j_uri), params=params,  # type: ignore[arg-type]
                                  embedder=Embedder())
    assert not fresh_service.embedder.loaded
    assert fresh_service.warm_up() > 0
    assert fresh_service.embedder.loaded and fresh_service.embedder.passes == 1
    # the loaded model's objects are out of the garbage collector's reach: a full collection over them took 228 ms,
    # paid by one recall in twenty (graphmem.embedding._freeze_long_lived_objects); ~70,000 objects are alive after
    # loading under ONNX Runtime, ~470,000 with PyTorch
    assert gc.get_freeze_count() > 50_000
    started = time.perf_counter()
    fresh_service.embedder.encode_one("a topic no one asked before")
    assert time.perf_counter() - started < 5  # the first real call no longer pays for the loading


def test_a_live_game_keeps_its_embeddings_between_recalls(service: MemoryService, driver: neo4j.Driver) -> None:
    # a live game opens with an incarnation, as an ingested one does: a long-running service keeps the embeddings of
    # its memories between recalls instead of reading the game's memories again on every call
    game = fresh("live-kept")
    header, events = small_game(game)
    service.start_game(header, history=events[:20])
    try:
        stored = driver.execute_query("MATCH (g:Game {uid: $game}) RETURN g.incarnation AS incarnation",
                                      game=game).records[0]["incarnation"]
        assert stored
        service.recall(game, "Marcus", "what did Priya say about Thomas?", dry_run=True)
        read = service.recall_cache.read
        assert read > 0
        service.recall(game, "Marcus", "who was whispering in the kitchen?", dry_run=True)
        assert service.recall_cache.read == read
    finally:
        delete_game(driver, None, game)
