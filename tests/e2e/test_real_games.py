"""The real LLM Traitors games, ingested with the real embedding model into a real Neo4j."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import neo4j
import pytest

from graphmem.ingest.pipeline import IngestSummary
from tests.conftest import whole_corpus

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


def count(driver: neo4j.Driver, query: str, **params: object) -> int:
    return int(driver.execute_query(query, params).records[0][0])


def test_every_real_game_ingests_with_no_rejected_event(real_games: IngestSummary, real_games_path: Path) -> None:
    assert real_games.games == len(list(real_games_path.glob("*/plomp.json"))) == whole_corpus(real_games_path, 40)
    assert real_games.rejected == []
    assert all(g.memories > 0 and g.players >= 7 for g in real_games.per_game)


def test_no_memory_belongs_to_anyone_who_did_not_witness_its_event(driver: neo4j.Driver,
                                                                   real_games: IngestSummary) -> None:
    games = [g.game for g in real_games.per_game]
    leaks = count(driver, """
        MATCH (p:Player)-[:REMEMBERS]->(m:Memory)-[:OF_EVENT]->(e:Event)
        WHERE m.game IN $games AND NOT (e)-[:WITNESSED_BY]->(p)
        RETURN count(m)""", games=games)
    assert leaks == 0
    witnessed = count(driver, "MATCH (m:Memory)-[:OF_EVENT]->(e:Event) WHERE m.game IN $games "
                              "RETURN count(DISTINCT e)", games=games)
    assert witnessed > 1000


def test_faithfuls_hold_no_memory_of_the_traitors_meetings(driver: neo4j.Driver, real_games: IngestSummary) -> None:
    games = [g.game for g in real_games.per_game]
    secret = count(driver, """
        MATCH (e:Event) WHERE e.game IN $games AND (e.channel = 'traitors' OR e.ballot = 'murder')
        RETURN count(e)""", games=games)
    leaked = count(driver, """
        MATCH (e:Event)<-[:OF_EVENT]-(m:Memory)<-[:REMEMBERS]-(p:Player)
        WHERE e.game IN $games AND (e.channel = 'traitors' OR e.ballot = 'murder') AND p.role <> 'traitor'
        RETURN count(m)""", games=games)
    assert secret > 100 and leaked == 0


def test_who_told_whom_and_rumour_chains_are_recorded(driver: neo4j.Driver, real_games: IngestSummary) -> None:
    games = [g.game for g in real_games.per_game]
    told = count(driver, "MATCH (a:Player)-[t:TOLD]->(b:Player) WHERE a.game IN $games AND b.game = a.game "
                         "RETURN count(t)", games=games)
    listeners = count(driver, "MATCH (m:Memory) WHERE m.game IN $games AND "
                              "m.source_type IN ['direct_told', 'group_discuss'] RETURN count(m)", games=games)
    assert told >= listeners > 0
    chains = count(driver, "MATCH (m:Memory)-[d:DERIVED_FROM]->(o:Memory) WHERE m.game IN $games "
                           "AND m.owner <> o.owner AND d.similarity >= 0.0 RETURN count(d)", games=games)
    assert chains > 0


def test_ingesting_every_game_again_creates_nothing(driver: neo4j.Driver, real_games: IngestSummary, memory: Any,
                                                    real_games_path: Path) -> None:
    games = [g.game for g in real_games.per_game]
    query = "MATCH (m:Memory) WHERE m.game IN $games RETURN count(m), sum(m.strength), sum(m.n)"
    before = driver.execute_query(query, games=games).records[0].values()
    again = memory.ingest(real_games_path)
    assert (again.nodes_created, again.relationships_created) == (0, 0)
    assert again.memories == real_games.memories
    assert driver.execute_query(query, games=games).records[0].values() == before


def test_examples_hold_three_real_games() -> None:
    root = Path(__file__).resolve().parents[2] / "examples" / "traitors-llm"
    assert len(list(root.glob("*/plomp.json"))) == 3
