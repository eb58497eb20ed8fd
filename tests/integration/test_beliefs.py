"""Stated beliefs in Neo4j (docs/perception.md#beliefs): an Avalon game of people (examples/avalon-nlu/9avmeG.json,
converted by the avalon-nlu importer) ingested; the believer's recall brings back what they concluded, as their own
worked-out conclusion, nobody else holds it, and the persuasion labels stay on the Event nodes."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest

from graphmem.analysis import analysis_query, bind_params, run_read
from graphmem.recall.prompt import check_block
from graphmem.store.games import delete_game

pytestmark = pytest.mark.neo4j

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "avalon-nlu" / "9avmeG.json"
GAME = "avalon-nlu-beliefs-9avmeG"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory, memory: Any, driver: neo4j.Driver) -> Iterator[str]:
    """The example game under its own id (the file's name gives it), ingested once for the module."""
    delete_game(driver, None, GAME)  # what a run stopped before its clean-up left
    path = tmp_path_factory.mktemp("nlu") / "beliefs-9avmeG.json"
    shutil.copyfile(EXAMPLE, path)
    summary = memory.ingest(path)
    assert [g.game for g in summary.per_game] == [GAME] and summary.rejected == []
    try:
        yield GAME
    finally:
        delete_game(driver, None, GAME)


def test_the_believer_recalls_their_own_conclusion_and_nobody_else_holds_it(
        game: str, memory: Any, driver: neo4j.Driver) -> None:
    # player-1 (Percival) set five beliefs on quest 3, among them that player-5 is Morgana (beliefs row 7): in that
    # phase (the first party attempt of quest 3, phase 5) the recall brings it back as theirs, worked out
    topic = "What did you conclude about player-5? Is player-5 Morgana?"
    then = memory.recall(game, "player-1", topic, participants=["player-5"], at=5, dry_run=True)
    [belief] = [m for m in then.memories if m.kind == "belief" and "player-5" in m.about]
    assert (belief.event, belief.own, belief.source_belief) == ("b7", True, "inferred")
    assert belief.text == "You concluded that player-5 is Morgana."
    block = then.prompt()
    assert check_block(block) == []
    assert re.search(r"^\d+\. \[CLEAR\] \[Day 3\] \[You worked it out\] You concluded that player-5 is Morgana\.$",
                     block, re.MULTILINE), block
    # at the end of the game, fainter, still theirs and still worked out
    late = memory.recall(game, "player-1", topic, participants=["player-5"], dry_run=True).prompt()
    assert re.search(r"^\d+\. \[[A-Z]+\] \[Day 3\] \[You worked it out\] You concluded that player-5 is Morgana",
                     late, re.MULTILINE), late
    holders = driver.execute_query("""
        MATCH (e:Event {game: $game, kind: 'belief'})<-[:OF_EVENT]-(m:Memory)<-[:REMEMBERS]-(p:Player)
        RETURN e.id AS id, e.belief AS belief, collect(p.name) AS owners ORDER BY id""", game=game).records
    assert [(r["id"], r["owners"]) for r in holders][:3] == [("b1", ["player-3"]), ("b2", ["player-2"]),
                                                            ("b3", ["player-6"])]
    assert all(len(r["owners"]) == 1 for r in holders) and len(holders) == 9
    query = analysis_query("information_boundary")
    assert run_read(driver, None, query, bind_params(query, {"game": game})).rows == []


def test_the_labels_are_on_the_event_nodes_and_in_no_memory(game: str, driver: neo4j.Driver) -> None:
    labels = driver.execute_query("""
        MATCH (e:Event {game: $game, id: 'm52'}) RETURN e.annotations_json AS labels""", game=game).records
    assert json.loads(labels[0]["labels"]) == {"deception": None, "persuasion": "logical deduction"}
    labelled = driver.execute_query("""
        MATCH (e:Event {game: $game}) WHERE e.annotations_json IS NOT NULL RETURN count(e) AS n""",
                                    game=game).records[0]["n"]
    assert labelled == 70  # every chat message of the game
    # no label word is in any property of any memory (the game's chat never uses them: its labels are
    # "logical deduction", "critique/opposition", "appeal/defense", ... and the lies "commission", "influence")
    words = ["logical deduction", "critique/opposition", "appeal/defense", "compromise/concession", "commission",
             "influence", "annotation", "persuasion", "deception"]
    stored = [dict(r["m"]) for r in driver.execute_query("MATCH (m:Memory {game: $game}) RETURN properties(m) AS m",
                                                          game=game).records]
    leaked = [m["uid"] for m in stored if any(w in json.dumps(m, ensure_ascii=False) for w in words)]
    memories = len(stored)
    assert leaked == [] and memories > 500
