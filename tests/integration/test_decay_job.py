"""The decay job against a real Neo4j: lifecycle over phases, flashbulbs, untouched states, working memory,
idempotence, errors. Each test works in its own game id and deletes its nodes at the end."""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import neo4j
import pytest

from graphmem.errors import NotFound, UsageProblem
from graphmem.jobs.decay import advance
from graphmem.model import default_parameters, load_parameters
from tests.integration.helpers import clear

pytestmark = pytest.mark.neo4j

PARAMS = default_parameters()


@pytest.fixture()
def game(driver: neo4j.Driver, schema: object) -> Iterator[str]:
    game_id = f"decay-{uuid.uuid4().hex[:8]}"
    yield game_id
    clear(driver, game_id)


def memory(name: str, **overrides: Any) -> dict[str, Any]:
    """An episodic memory encoded at phase 0 with E0 1 and S 10, owned by Ann (threshold 0.18)."""
    row = {"name": name, "owner": "Ann", "t_enc": 0, "t_ref": 0, "e_ref": 1.0, "s": 10.0, "s_enc": 10.0, "n": 0,
           "floor": 0.0, "flashbulb": False, "c0": 0.9, "source_k": 1.5, "source_type": "direct_told",
           "source_belief": "direct_told", "source_confidence": 0.9, "strength": 1.0, "threshold": 0.18,
           "state": "active", "decayed_to": 0, "text": f"memory {name}"}
    row.update(overrides)
    return row


def write_game(driver: neo4j.Driver, game: str, memories: Sequence[dict[str, Any]] = (),
               thoughts: Sequence[dict[str, Any]] = (), capacity: int = 4, curve: str = "exponential") -> None:
    """A Game with one Player (Ann), her memories and thoughts, written directly (no ingest)."""
    driver.execute_query(
        "CREATE (:Game {uid: $game, game: $game, curve: $curve, decayed_to: 0, last_phase: 0})"
        "-[:HAS_PLAYER]->(:Player {uid: $game + '/player/Ann', game: $game, name: 'Ann', wm_capacity: $capacity})",
        game=game, curve=curve, capacity=capacity)
    driver.execute_query(
        "MATCH (p:Player {uid: $game + '/player/Ann'}) UNWIND $rows AS r "
        "CREATE (p)-[:REMEMBERS]->(m:Memory {uid: $game + '/memory/Ann/' + r.name, game: $game}) SET m += r",
        rows=list(memories), game=game)
    driver.execute_query(
        "MATCH (p:Player {uid: $game + '/player/Ann'}) UNWIND $rows AS r "
        "CREATE (p)-[:THINKS]->(t:Thought {uid: $game + '/thought/Ann/' + r.id, game: $game, player: 'Ann', "
        "  trigger: 'api', active: false, persistence_left: 0}) "
        "SET t += r, t.expires_phase = r.pushed_phase + r.persistence",
        rows=list(thoughts), game=game)


def props(driver: neo4j.Driver, game: str) -> dict[str, dict[str, Any]]:
    """Every property of every node of the game, by uid."""
    records, _, _ = driver.execute_query("MATCH (n {game: $game}) RETURN n.uid AS uid, properties(n) AS p",
                                         game=game)
    return {r["uid"]: r["p"] for r in records}


def mem(driver: neo4j.Driver, game: str, name: str) -> dict[str, Any]:
    return props(driver, game)[f"{game}/memory/Ann/{name}"]


def test_states_move_active_warm_archived_and_flashbulbs_stay_active(driver: neo4j.Driver, game: str) -> None:
    write_game(driver, game, [memory("plain"), memory("flash", floor=0.8, flashbulb=True, s=3.0)])
    seen: list[tuple[int, str, float, str, float]] = []
    for phase in range(1, 21):
        report = advance(driver, None, game, None, PARAMS)
        assert (report.from_phase, report.to_phase) == (phase - 1, phase)
        plain, flash = mem(driver, game, "plain"), mem(driver, game, "flash")
        seen.append((phase, plain["state"], plain["strength"], flash["state"], flash["strength"]))
        assert math.isclose(plain["strength"], math.exp(-phase / 10.0), abs_tol=1e-12)
        assert (flash["state"], flash["strength"]) == ("active", 0.8)
    states = {phase: state for phase, state, *_ in seen}
    # exp(-t/10) >= 0.40 up to t = 9; >= 0.18 (Ann's threshold) up to t = 17; archived from t = 18
    assert [states[t] for t in (1, 9, 10, 17, 18, 20)] == ["active", "active", "warm", "warm", "archived", "archived"]
    stored = props(driver, game)[game]
    assert stored["decayed_to"] == 20


def test_source_confidence_runs_on_its_own_clock_and_fades_to_unknown(driver: neo4j.Driver, game: str) -> None:
    # recalled at phase 8 (t_ref = 8, e_ref reset): the content is strong again, the source keeps fading from t_enc
    write_game(driver, game, [memory("told", t_ref=8, e_ref=0.9)])
    advance(driver, None, game, 10, PARAMS)
    m = mem(driver, game, "told")
    assert math.isclose(m["strength"], 0.9 * math.exp(-2 / 10.0), abs_tol=1e-12)
    c = 0.9 * math.exp(-10 / 10.0) ** 1.5
    assert math.isclose(m["source_confidence"], c, abs_tol=1e-12) and c < 0.3
    assert (m["source_belief"], m["state"]) == ("unknown", "active")


def test_other_lifecycle_states_and_later_memories_are_untouched(driver: neo4j.Driver, game: str) -> None:
    rows = [memory("consolidated", state="consolidated"), memory("tombstoned", state="tombstoned"),
            memory("candidate", state="candidate"), memory("future", t_enc=9, t_ref=9), memory("live")]
    write_game(driver, game, rows)
    before = props(driver, game)
    report = advance(driver, None, game, 5, PARAMS)
    after = props(driver, game)
    for name in ("consolidated", "tombstoned", "candidate", "future"):
        uid = f"{game}/memory/Ann/{name}"
        assert after[uid] == before[uid], name
    assert report.memories == 1 and after[f"{game}/memory/Ann/live"]["decayed_to"] == 5


def test_decaying_twice_to_the_same_phase_changes_nothing(driver: neo4j.Driver, game: str) -> None:
    rows = [memory(f"m{i}", t_enc=i % 4, t_ref=i % 4 + i % 3, e_ref=0.3 + 0.07 * i, s=1.0 + 3 * i,
                   source_type=("first_hand", "overheard", "group_discuss")[i % 3]) for i in range(10)]
    thoughts = [{"id": f"t{i}", "content": f"thought {i}", "priority": 0.1 * i, "persistence": 1 + i % 3,
                 "pushed_phase": i % 4, "seq": i} for i in range(7)]
    write_game(driver, game, rows, thoughts, curve="power")
    first = advance(driver, None, game, 4, PARAMS)
    once = props(driver, game)
    second = advance(driver, None, game, 4, PARAMS)
    assert props(driver, game) == once
    assert (second.from_phase, second.to_phase) == (4, 4)
    assert (second.memories, dict(second.states), second.thoughts_active) == (
        first.memories, dict(first.states), first.thoughts_active)


def test_advancing_in_steps_equals_advancing_at_once(driver: neo4j.Driver, game: str) -> None:
    rows = [memory(f"m{i}", s=2.0 + i, t_enc=i, t_ref=i) for i in range(6)]
    write_game(driver, game, rows)
    for phase in (2, 5, 7):
        advance(driver, None, game, phase, PARAMS)
    stepped = props(driver, game)
    other = f"{game}-x"
    try:
        write_game(driver, other, rows)
        advance(driver, None, other, 7, PARAMS)
        direct = props(driver, other)
        for i in range(6):
            a, b = stepped[f"{game}/memory/Ann/m{i}"], direct[f"{other}/memory/Ann/m{i}"]
            assert {k: v for k, v in a.items() if k not in ("uid", "game")} == {
                k: v for k, v in b.items() if k not in ("uid", "game")}
    finally:
        clear(driver, other)


def test_parameters_come_from_the_configuration(driver: neo4j.Driver, game: str) -> None:
    write_game(driver, game, [memory("m", e_ref=0.5)])  # strength 0.5 * exp(-0.1) = 0.452 at phase 1
    advance(driver, None, game, 1, PARAMS)
    assert mem(driver, game, "m")["state"] == "active"
    strict = load_parameters({"parameters": {"lifecycle": {"active": 0.5}, "source": {"unknown_below": 0.9}}})
    advance(driver, None, game, 1, strict)
    m = mem(driver, game, "m")
    assert (m["state"], m["source_belief"]) == ("warm", "unknown")


def _active(driver: neo4j.Driver, game: str) -> dict[str, tuple[bool, int]]:
    stored = props(driver, game)
    return {p["id"]: (p["active"], p["persistence_left"]) for p in stored.values() if "persistence" in p}


def test_working_memory_displaces_lowest_priority_oldest_first_and_expires(driver: neo4j.Driver, game: str) -> None:
    thoughts = [
        {"id": "a", "content": "watch Marcus", "priority": 0.5, "persistence": 5, "pushed_phase": 1, "seq": 0},
        {"id": "b", "content": "old low", "priority": 0.2, "persistence": 5, "pushed_phase": 1, "seq": 1},
        {"id": "c", "content": "urgent", "priority": 0.9, "persistence": 2, "pushed_phase": 1, "seq": 2},
        {"id": "d", "content": "new low", "priority": 0.2, "persistence": 5, "pushed_phase": 1, "seq": 3},
        {"id": "e", "content": "vote plan", "priority": 0.7, "persistence": 5, "pushed_phase": 1, "seq": 4},
        {"id": "f", "content": "later", "priority": 0.6, "persistence": 1, "pushed_phase": 4, "seq": 5},
    ]
    write_game(driver, game, thoughts=thoughts, capacity=4)
    report = advance(driver, None, game, 1, PARAMS)
    # five pushes at phase 1, capacity 4: the lowest priority goes, the older of the two 0.2 items first
    assert _active(driver, game) == {"a": (True, 5), "b": (False, 0), "c": (True, 2), "d": (True, 5),
                                     "e": (True, 5), "f": (False, 1)}
    assert (report.thoughts, report.thoughts_active) == (6, 4)
    advance(driver, None, game, 3, PARAMS)  # c (persistence 2) expired at phase 3; b does not come back
    assert _active(driver, game) == {"a": (True, 3), "b": (False, 0), "c": (False, 0), "d": (True, 3),
                                     "e": (True, 3), "f": (False, 1)}
    advance(driver, None, game, 4, PARAMS)  # f pushed at 4 into a free slot
    assert {k for k, (on, _) in _active(driver, game).items() if on} == {"a", "d", "e", "f"}
    advance(driver, None, game, 6, PARAMS)  # everything pushed at 1 with persistence 5 is gone at 6, f at 5
    assert {k for k, (on, _) in _active(driver, game).items() if on} == set()


def test_advancing_backwards_is_a_usage_problem_naming_the_current_phase(driver: neo4j.Driver, game: str) -> None:
    write_game(driver, game, [memory("m")])
    advance(driver, None, game, 6, PARAMS)
    before = props(driver, game)
    with pytest.raises(UsageProblem, match="at phase 6"):
        advance(driver, None, game, 5, PARAMS)
    assert props(driver, game) == before


def test_unknown_game_is_not_found_listing_the_stored_games(driver: neo4j.Driver, game: str) -> None:
    write_game(driver, game)
    with pytest.raises(NotFound, match=f"no game '{game}-missing' is stored") as info:
        advance(driver, None, f"{game}-missing", None, PARAMS)
    assert game in str(info.value).split("is stored (")[1]  # every stored id, or the closest
