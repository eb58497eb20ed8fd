"""Every Avalon game of people (sstepput/Avalon-NLU, tests/conftest.py's ``avalon_nlu_games_path``: the 14 of
../shared/data/avalon-nlu when present, else the 3 of examples/) converted and ingested without --skip-invalid, with
the real embedding model into a real Neo4j; the information boundary on each game; each stated belief held by its
believer alone (issue 39)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import neo4j
import pytest

from graphmem.analysis import analysis_query, bind_params, run_read
from graphmem.importers import discover
from graphmem.ingest.pipeline import IngestSummary
from tests.conftest import ConvertedGame

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


@pytest.fixture(scope="module")
def ingested(memory: Any, avalon_nlu_games_path: Path) -> IngestSummary:
    """The corpus, ingested once for the module (as ``graphmem ingest`` detects it)."""
    started = time.perf_counter()
    summary: IngestSummary = memory.ingest(avalon_nlu_games_path)
    print(f"\ningested {summary.games} Avalon-NLU games ({summary.memories} memories) in "
          f"{time.perf_counter() - started:.1f} s")
    return summary


def test_every_game_ingests_and_the_information_boundary_holds_on_each(
        driver: neo4j.Driver, ingested: IngestSummary, avalon_nlu_games_path: Path) -> None:
    assert ingested.games == len(discover([avalon_nlu_games_path])) >= 2 and ingested.rejected == []
    query = analysis_query("information_boundary")
    for game in ingested.per_game:
        assert game.format == "avalon-nlu" and game.memories > 0, game.game
        leaks = run_read(driver, None, query, bind_params(query, {"game": game.game})).rows
        assert leaks == [], f"{game.game}: {leaks[:3]}"


def test_each_belief_is_remembered_by_its_believer_alone(
        driver: neo4j.Driver, ingested: IngestSummary, avalon_nlu_corpus: tuple[ConvertedGame, ...]) -> None:
    games = [g.game for g in ingested.per_game]
    stored = driver.execute_query("""
        MATCH (e:Event {kind: 'belief'}) WHERE e.game IN $games
        OPTIONAL MATCH (e)<-[:OF_EVENT]-(m:Memory)<-[:REMEMBERS]-(p:Player)
        RETURN e.game AS game, e.id AS id, e.actor AS believer, collect(p.name) AS owners""", games=games).records
    expected = {(g.log.game, e.id, e.event.player) for g in avalon_nlu_corpus for e in g.log.events  # type: ignore[union-attr]
                if e.kind == "belief"}
    assert {(r["game"], r["id"], r["believer"]) for r in stored} == expected
    assert all(r["owners"] == [r["believer"]] for r in stored)
    # and the labels are on the statements' Event nodes, for analysis
    labelled = driver.execute_query("""
        MATCH (e:Event {kind: 'say'}) WHERE e.game IN $games AND e.annotations_json IS NOT NULL
        RETURN count(e) AS n""", games=games).records[0]["n"]
    said = sum(1 for g in avalon_nlu_corpus for e in g.log.events if e.kind == "say")
    assert labelled == said


def test_a_party_list_in_a_recall_block_names_its_owner_you(memory: Any, ingested: IngestSummary) -> None:
    """A fresh user's find: player-1's recall block read "player-5's party (player-5, player-6, player-1, player-4)
    was rejected", where every other memory of theirs says "you" (docs/prompt.md). 9avmeG ships in examples/."""
    assert "avalon-nlu-9avmeG" in {g.game for g in ingested.per_game}
    block = memory.recall("avalon-nlu-9avmeG", "player-1", "player-5's party was rejected", k=100,
                          dry_run=True).prompt()
    parties = [line for line in block.splitlines() if "party (" in line or "team of" in line]
    assert any("party (player-5, player-6, you, player-4)" in line for line in parties), block
    assert not any("player-1" in line for line in parties), parties
