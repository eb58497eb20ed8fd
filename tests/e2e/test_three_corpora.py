"""Every game of the three real corpora (The Traitors, Avalon, Mafia) converted and ingested without --skip-invalid,
with the real embedding model into a real Neo4j; the information boundary on each; what the players of the two new
games hold (issue 12, "Done when")."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import CliRunner

from graphmem.analysis import analysis_query, analysis_query_names, bind_params, run_read
from graphmem.cli import main
from graphmem.importers import discover
from graphmem.ingest.pipeline import IngestSummary

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


@pytest.fixture(scope="session")
def corpora(real_games_path: Path, avalon_games_path: Path, mafia_games_path: Path) -> list[Path]:
    return [real_games_path, avalon_games_path, mafia_games_path]


@pytest.fixture(scope="session")
def converted(corpora: list[Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """``graphmem convert --json`` of every game of the three corpora into one folder: (its report, the folder)."""
    out = tmp_path_factory.mktemp("converted")
    result = CliRunner().invoke(main, ["convert", *map(str, corpora), "-o", str(out), "--json"])
    assert result.exit_code == 0, result.stderr[-3000:]
    return json.loads(result.stdout), out


@pytest.fixture(scope="session")
def three_corpora(memory: Any, corpora: list[Path], real_games: object) -> IngestSummary:
    """Every game of the three corpora, ingested once per session (as ``graphmem ingest`` detects them). The Traitors
    games are the session's ``real_games``, ingested first (here they come back unchanged): so this file runs on the
    worker that holds them, and no worker ingests them twice (tests/conftest.py)."""
    started = time.perf_counter()
    summary: IngestSummary = memory.ingest(*corpora)
    print(f"\ningested {summary.games} games ({summary.memories} memories) in {time.perf_counter() - started:.1f} s")
    return summary


def run(driver: neo4j.Driver, name: str, **given: Any) -> list[dict[str, Any]]:
    query = analysis_query(name)
    return run_read(driver, None, query, bind_params(query, {k: str(v) for k, v in given.items()})).rows


def games_of(summary: IngestSummary, fmt: str) -> list[str]:
    return sorted(g.game for g in summary.per_game if g.format == fmt)


def test_every_game_of_the_three_corpora_converts_with_no_skipped_event(
        converted: tuple[dict[str, Any], Path], corpora: list[Path]) -> None:
    report, folder = converted
    expected = len(discover(corpora))
    assert report["converted"] == report["total"] == expected >= 7
    assert report["not_converted"] == [] and all(g["skipped"] == [] for g in report["games"])
    assert len(list(folder.glob("*.jsonl"))) == expected
    formats = {g["format"] for g in report["games"]}
    assert formats == {"traitors-plomp", "avalon-llm", "llmafia"}


def test_every_game_ingests_and_the_information_boundary_holds_on_each(
        driver: neo4j.Driver, three_corpora: IngestSummary, corpora: list[Path]) -> None:
    assert three_corpora.games == len(discover(corpora)) and three_corpora.rejected == []
    for game in three_corpora.per_game:
        assert game.memories > 0, game.game
        leaks = run(driver, "information_boundary", game=game.game)
        assert leaks == [], f"{game.game}: {leaks[:3]}"
    # not vacuous: secret votes and the hidden sides' talk are stored and remembered, by their own only
    secret = driver.execute_query("""
        MATCH (e:Event)<-[:OF_EVENT]-(m:Memory) WHERE e.game IN $games AND e.secret = true RETURN count(m)""",
        games=games_of(three_corpora, "avalon-llm")).records[0][0]
    night = driver.execute_query("""
        MATCH (e:Event)<-[:OF_EVENT]-(m:Memory) WHERE e.game IN $games AND e.channel = 'traitors' RETURN count(m)""",
        games=games_of(three_corpora, "llmafia")).records[0][0]
    assert secret > 100 and night > 50


def test_the_converted_logs_are_the_ingested_games(converted: tuple[dict[str, Any], Path], memory: Any,
                                                   three_corpora: IngestSummary) -> None:
    _, folder = converted
    again = memory.ingest(folder)  # the same games from their canonical files: the same hash, nothing new
    assert again.games == three_corpora.games
    assert (again.nodes_created, again.relationships_created) == (0, 0)
    assert all(g.unchanged for g in again.per_game)


def test_every_analysis_query_runs_on_the_new_games(driver: neo4j.Driver, three_corpora: IngestSummary) -> None:
    games = games_of(three_corpora, "avalon-llm")[:3] + games_of(three_corpora, "llmafia")[:3]
    for name in analysis_query_names("game"):
        query = analysis_query(name)
        for game in games:
            given = {"game": game}
            if name == "player_memories":
                given["player"] = driver.execute_query("MATCH (p:Player {game: $game}) RETURN min(p.name)",
                                                       game=game).records[0][0]
            result = run_read(driver, None, query, bind_params(query, given))
            assert result.columns == query.returns, f"{name} on {game}"
    quests = run(driver, "quests", game=games[0])
    assert 3 <= len(quests) <= 5 and all(q["result"] in ("success", "fail") for q in quests)
    assert all(q["fails"] == len(q["failed_by"]) for q in quests)
    assert run(driver, "banishments", game=games[0]) == []  # mission games banish nobody


def test_avalon_servants_hold_no_card_of_another_nor_the_evil_talk(driver: neo4j.Driver,
                                                                    three_corpora: IngestSummary) -> None:
    games = games_of(three_corpora, "avalon-llm")
    leaked = driver.execute_query("""
        MATCH (p:Player)-[:REMEMBERS]->(m:Memory)-[:OF_EVENT]->(e:Event)
        WHERE p.game IN $games AND p.role IN ['loyal servant', 'Merlin', 'Percival']
          AND ((e.secret = true AND NOT (e)-[:BY]->(p)) OR e.channel = 'traitors')
        RETURN count(m)""", games=games).records[0][0]
    cards = driver.execute_query("""
        MATCH (p:Player)-[:REMEMBERS]->(m:Memory)-[:OF_EVENT]->(e:Event)
        WHERE p.game IN $games AND e.ballot = 'quest' AND e.secret = true RETURN count(DISTINCT p)""",
        games=games).records[0][0]
    assert leaked == 0 and cards > 0


def test_avalon_merlin_knows_the_evil_players_from_the_start_and_the_evil_players_each_other(
        driver: neo4j.Driver, three_corpora: IngestSummary) -> None:
    rows = driver.execute_query("""
        MATCH (g:Game) WHERE g.uid IN $games
        MATCH (g)-[:HAS_PLAYER]->(holder:Player)
        OPTIONAL MATCH (holder)-[:REMEMBERS]->(m:Memory)-[:OF_EVENT]->(e:Event {kind: 'reveal'})-[:TARGETS]->(shown)
        WHERE e.role_revealed = 'evil' AND m.t_enc = 0
        WITH g, holder, collect(shown.name) AS seen
        RETURN g.uid AS game, holder.name AS holder, holder.role AS role, seen,
               [(g)-[:HAS_PLAYER]->(p) WHERE p.role IN g.traitor_roles | p.name] AS evil,
               [(g)-[:HAS_PLAYER]->(p) WHERE p.role = 'Mordred' | p.name] AS mordred,
               [(g)-[:HAS_PLAYER]->(p) WHERE p.role = 'Oberon' | p.name] AS oberon""",
        games=games_of(three_corpora, "avalon-llm")).records
    checked = 0
    for r in rows:
        evil, seen = set(r["evil"]), set(r["seen"])
        if r["role"] == "Merlin":
            assert seen == evil - set(r["mordred"]), r["game"]
            checked += 1
        elif r["holder"] in evil and r["role"] != "Oberon":
            assert seen == evil - {r["holder"]} - set(r["oberon"]), (r["game"], r["holder"])
        else:
            assert seen == set(), (r["game"], r["holder"])
    assert checked == len(games_of(three_corpora, "avalon-llm"))


def test_mafia_bystanders_hold_no_memory_of_the_night(driver: neo4j.Driver, three_corpora: IngestSummary) -> None:
    leaked = driver.execute_query("""
        MATCH (p:Player {role: 'bystander'})-[:REMEMBERS]->(m:Memory)-[:OF_EVENT]->(e:Event)
        WHERE p.game IN $games AND (e.channel = 'traitors' OR e.ballot = 'murder')
        RETURN count(m)""", games=games_of(three_corpora, "llmafia")).records[0][0]
    kills = driver.execute_query("""
        MATCH (p:Player {role: 'bystander'})-[:REMEMBERS]->(m:Memory)-[:OF_EVENT]->(e:Event {kind: 'murder'})
        WHERE p.game IN $games RETURN count(m)""", games=games_of(three_corpora, "llmafia")).records[0][0]
    assert leaked == 0 and kills > 0  # they learn of the kill, never of the talk or the votes behind it


def test_recall_of_a_mafia_bystander_on_the_last_day(memory: Any, driver: neo4j.Driver,
                                                     three_corpora: IngestSummary) -> None:
    game = "llmafia-0001"  # examples/llmafia/games/0001: Lee, a bystander, survives to the mafia's win on day 2
    assert game in games_of(three_corpora, "llmafia")
    result = memory.recall(game, "Lee", "who is the mafia", dry_run=True)
    prompt = result.prompt()
    assert "Charlie was murdered by the mafia." in prompt and "=== YOUR MEMORIES ===" in prompt
    assert result.phase == result.decayed_to  # the end of the log: the last day
    night = {r[0] for r in driver.execute_query("""
        MATCH (e:Event {game: $game}) WHERE e.channel = 'traitors' OR e.ballot = 'murder' RETURN e.id""",
        game=game).records}
    winter = {m["event"] for m in memory.query("player_memories", {"game": game, "player": "Winter"}).rows}
    assert night and night <= winter  # the mafia remember their night ...
    assert not any(m.event in night for m in result.memories)  # ... the bystander never heard it


def test_recall_of_an_avalon_merlin_before_the_assassination(memory: Any, driver: neo4j.Driver,
                                                             three_corpora: IngestSummary) -> None:
    game = "avalon_20251130_234947"  # examples/avalon-llm/1_cross_game_learning_50g/individual_games/game_01.json
    assert game in games_of(three_corpora, "avalon-llm")
    before = driver.execute_query("""
        MATCH (ph:Phase {game: $game}) WHERE ph.name = 'assassination' RETURN ph.index - 1""",
        game=game).records[0][0]
    result = memory.recall(game, "Diana", "who is evil", at=before, dry_run=True)
    shown = {m.text for m in result.memories if m.kind == "reveal"}
    assert shown == {"Charlie is evil.", "Eve is evil."}  # what Merlin was shown at the start, recalled by the cue
    prompt = result.prompt()
    assert "Charlie is evil" in prompt and "Eve is evil" in prompt
    assert "assassinate" not in prompt and result.phase == before  # not yet
