"""Reflections across a series of games (docs/perception.md#reflections, docs/model.md#series-of-games): two Avalon
games of one series, imported from the source engine's layout (``individual_games/game_NN.json`` beside
``player_memories.json``); in game 2 Alice's recall about Charlie reaches what she concluded about him after game 1,
labelled with its game, and nobody else ever holds her reflection."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest

from graphmem.analysis import analysis_query, bind_params, run_read
from graphmem.recall.prompt import check_block
from graphmem.store.games import delete_game
from tests.integration.helpers import clear

pytestmark = pytest.mark.neo4j

FIVE = (Path(__file__).resolve().parents[2] / "examples" / "avalon-llm" / "1_cross_game_learning_50g"
        / "individual_games" / "game_01.json")
ALICE_ON_CHARLIE = "Charlie blended in well by anchoring early teams"


@pytest.fixture(scope="module")
def series(tmp_path_factory: pytest.TempPathFactory, memory: Any,
           driver: neo4j.Driver) -> Iterator[tuple[str, str, str]]:
    """(series name, game 1, game 2): the 5-player example game as game 1 of a fresh series, and the same game
    played again as game 2 (a fresh id, without its reflections), both ingested once for the module."""
    # fixed ids: recall's randomness is seeded by each memory's uid (docs/model.md#seeded-randomness), and with a random tag
    # the 26-phase-old reflection lost a detail of her words in a dry run in about 1 run of 15
    tag = "reflect0"
    name, first, second = f"series-{tag}", f"avalon-{tag}-1", f"avalon-{tag}-2"
    for game in (first, second):  # what a run stopped before its clean-up left
        delete_game(driver, None, game)
    folder = tmp_path_factory.mktemp("series") / "run" / "individual_games"
    folder.mkdir(parents=True)
    (folder.parent / "player_memories.json").write_text(json.dumps({"session_id": name, "player_memories": {}}),
                                                       encoding="utf-8")
    data = json.loads(FIVE.read_text(encoding="utf-8"))
    (folder / "game_01.json").write_text(json.dumps(data | {"game_id": first}), encoding="utf-8")
    again = {k: v for k, v in data.items() if k != "post_game_reflections"}
    (folder / "game_02.json").write_text(json.dumps(again | {"game_id": second}), encoding="utf-8")
    memory.ingest(folder / "game_01.json", series=name)
    memory.ingest(folder / "game_02.json", series=name)
    try:
        yield name, first, second
    finally:
        clear(driver, first, second)
        driver.execute_query("MATCH (n) WHERE (n:Series AND n.name = $name) OR (n:Person AND n.series = $name) "
                             "DETACH DELETE n", name=name)


def leaks(driver: neo4j.Driver, game: str) -> list[dict[str, Any]]:
    query = analysis_query("information_boundary")
    return run_read(driver, None, query, bind_params(query, {"game": game})).rows


def test_alice_recalls_in_game_two_what_she_concluded_about_charlie_after_game_one(
        series: tuple[str, str, str], memory: Any, driver: neo4j.Driver) -> None:
    name, first, second = series
    stored = driver.execute_query("MATCH (g:Game)-[r:IN_SERIES]->(:Series {name: $name}) RETURN g.uid, r.position "
                                  "ORDER BY r.position", name=name).records
    assert [tuple(r) for r in stored] == [(first, 1), (second, 2)]
    # at the end of game 2, 26 phases after game 1's (its 16 and the gap's 10), among 148 candidates: the cue of
    # what she concluded brings it back (among the first three by score; "Charlie" alone ranks it 14th)
    result = memory.recall(second, "Alice", "What did you conclude about Charlie after the last game?",
                           participants=["Charlie"], dry_run=True)
    found = [m for m in result.memories if m.kind == "reflect"]
    assert {(m.game, m.series_game, m.own) for m in found} == {(first, 1, True)}
    assert all(m.uid.startswith(f"{first}/memory/Alice/") for m in found)
    assert any("Charlie" in m.about and ALICE_ON_CHARLIE in m.text for m in found)
    block = result.prompt()
    assert check_block(block) == []
    # faint after 26 phases: [VAGUE], in her words, from game 1
    assert re.search(r'^\d+\. \[VAGUE\] \[Game 1, Day 5\] You concluded something about "Charlie blended in well by '
                     r'anchoring"\.\.\. you think it involved Charlie\.$', block, re.MULTILINE), block


def test_no_other_player_holds_or_recalls_alices_reflection(series: tuple[str, str, str], memory: Any,
                                                           driver: neo4j.Driver) -> None:
    _, first, second = series
    holders = driver.execute_query(
        "MATCH (p:Player)-[:REMEMBERS]->(m:Memory)-[:OF_EVENT]->(e:Event {game: $game, kind: 'reflect'})-[:BY]->(a) "
        "RETURN a.name AS author, collect(DISTINCT p.name) AS holders", game=first).records
    assert len(holders) == 5 and all(r["holders"] == [r["author"]] for r in holders)
    assert leaks(driver, first) == [] and leaks(driver, second) == []
    for player in ("Bob", "Charlie", "Diana", "Eve"):
        result = memory.recall(second, player, "Charlie blended in well by anchoring early teams",
                               participants=["Alice"], dry_run=True)
        assert not any(ALICE_ON_CHARLIE in m.text for m in result.memories), player
    # a planted leak of Alice's reflection is caught
    driver.execute_query("""
        MATCH (bob:Player {game: $game, name: 'Bob'}),
              (e:Event {game: $game, kind: 'reflect'})-[:BY]->(:Player {name: 'Alice'})
        WITH bob, e LIMIT 1
        CREATE (bob)-[:REMEMBERS]->(:Memory {uid: $game + '/leak', game: $game, owner: 'Bob'})-[:OF_EVENT]->(e)
        """, game=first)
    assert sorted((r["violation"], r["owner"], r["kind"]) for r in leaks(driver, first)) == [
        ("not a witness", "Bob", "reflect"), ("someone else's reflection", "Bob", "reflect")]
