"""Every analysis query on every real LLM Traitors game (ingested once per session by the ``real_games`` fixture)."""

from __future__ import annotations

from typing import Any

import neo4j
import pytest

from graphmem.analysis import QueryResult, analysis_query, analysis_query_names, bind_params, run_read
from graphmem.ingest.pipeline import IngestSummary

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


def games_of(summary: IngestSummary) -> list[str]:
    return sorted(g.game for g in summary.per_game)


def run(driver: neo4j.Driver, name: str, **given: str) -> QueryResult:
    query = analysis_query(name)
    return run_read(driver, None, query, bind_params(query, given))


def scalar(driver: neo4j.Driver, query: str, **params: Any) -> Any:
    return driver.execute_query(query, params).records[0][0]


@pytest.mark.parametrize("name", analysis_query_names("game"))
def test_every_query_runs_on_every_real_game_with_its_documented_columns(driver: neo4j.Driver,
                                                                         real_games: IngestSummary,
                                                                         name: str) -> None:
    query = analysis_query(name)
    total = 0
    for game in games_of(real_games):
        given = {"game": game}
        if name == "player_memories":
            given["player"] = scalar(driver, "MATCH (p:Player {game: $game}) RETURN min(p.name)", game=game)
        result = run_read(driver, None, query, bind_params(query, given))
        assert result.columns == query.returns, f"{name} on {game}"
        total += len(result.rows)
    # the questions that every played game answers return something somewhere
    if name in ("who_told_whom", "players", "phases", "memory_summary", "strength_by_profile", "banishments",
                "accusation_network", "rumour_reach", "rumour_origin", "flashbulbs", "forgotten_events",
                "source_amnesia", "most_remembered_events", "game_overview", "profile_summary", "player_memories"):
        assert total > 0, f"{name} found nothing in {len(real_games.per_game)} real games"


def test_the_information_boundary_holds_on_every_real_game(driver: neo4j.Driver, real_games: IngestSummary) -> None:
    games = games_of(real_games)
    for game in games:
        leaks = run(driver, "information_boundary", game=game).rows
        assert leaks == [], f"{game}: {leaks[:5]}"
    # not vacuous: there are secret events and memories of them, all held by traitors
    secret = scalar(driver, """MATCH (e:Event)<-[:OF_EVENT]-(m:Memory) WHERE e.game IN $games
                               AND (e.channel = 'traitors' OR e.ballot = 'murder') RETURN count(m)""", games=games)
    assert secret >= len(games)


def test_strength_computed_in_cypher_equals_the_decay_jobs_stored_strength(driver: neo4j.Driver,
                                                                           real_games: IngestSummary) -> None:
    for game in games_of(real_games)[:10]:
        overview = run(driver, "game_overview", game=game).rows[0]
        last = overview["decayed_to"]
        by_profile = [r for r in run(driver, "strength_by_profile", game=game).rows if r["phase"] == last]
        stored = driver.execute_query("""
            MATCH (p:Player {game: $game})-[:REMEMBERS]->(m:Memory)
            WHERE m.t_enc <= $last AND m.decayed_to = $last
            RETURN p.profile AS profile, count(m) AS n, avg(m.strength) AS mean""", game=game, last=last).records
        assert {r["profile"]: r["memories"] for r in by_profile} == {r["profile"]: r["n"] for r in stored}
        for row, record in zip(sorted(by_profile, key=lambda r: r["profile"]), sorted(stored, key=lambda r: r[0])):
            assert row["mean_strength"] == pytest.approx(record["mean"], abs=1e-9)


def test_counts_agree_between_queries(driver: neo4j.Driver, real_games: IngestSummary) -> None:
    for game in games_of(real_games):
        overview = run(driver, "game_overview", game=game).rows[0]
        told = run(driver, "who_told_whom", game=game).rows
        assert sum(r["messages"] for r in told) == overview["told"]
        summary = run(driver, "memory_summary", game=game).rows
        assert sum(r["memories"] for r in summary) == overview["memories"]
        assert len(summary) == overview["players"] == len(run(driver, "players", game=game).rows)
        # every derived memory belongs to exactly one rumour's reach
        reach = run(driver, "rumour_reach", game=game, min_players="0").rows
        derived = scalar(driver, "MATCH (m:Memory {game: $game}) WHERE (m)-[:DERIVED_FROM]->() RETURN count(m)",
                         game=game)
        assert sum(r["memories"] for r in reach) == derived == len(run(driver, "rumour_origin", game=game).rows)
        assert all(r["strength"] >= 0.8 for r in run(driver, "flashbulbs", game=game).rows)
        archived = scalar(driver, """MATCH (m:Memory {game: $game}) WHERE m.state = 'archived'
                                     AND m.kind <> 'lesson' AND NOT m.flashbulb RETURN count(m)""", game=game)
        assert len(run(driver, "forgotten_events", game=game).rows) == archived
