"""A mission game (examples/small-mission-game.jsonl) in Neo4j: the queries that work for it, the one that says it
does not apply, and the information boundary's check of secret votes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import neo4j
import pytest

from graphmem.analysis import analysis_query, bind_params, run_read
from graphmem.importers import get_importer
from tests.integration.conftest import FreshGame

pytestmark = pytest.mark.neo4j

MISSION = Path(__file__).resolve().parents[2] / "examples" / "small-mission-game.jsonl"
NLU = Path(__file__).resolve().parents[2] / "examples" / "avalon-nlu" / "9avmeG.json"


def rows(driver: neo4j.Driver, name: str, **given: str) -> list[dict[str, Any]]:
    query = analysis_query(name)
    return run_read(driver, None, query, bind_params(query, given)).rows


def test_quests_accusations_lies_and_no_banishments(driver: neo4j.Driver, fresh_game: FreshGame) -> None:
    game = fresh_game(MISSION, "mission")
    [quest] = rows(driver, "quests", game=game)
    assert (quest["day"], quest["team"], quest["result"], quest["fails"], quest["failed_by"]) == (
        1, ["Alice", "Dana"], "fail", 1, ["Dana"])
    assert quest["hidden_on_team"] == 1 and quest["proposals"] == 2
    assert quest["tallies"][0] == "Chen's team (Chen, Dana) was rejected, 2 votes to 3."
    assert rows(driver, "banishments", game=game) == []
    accused = {(r["accuser"], r["accused"], r["kind"]) for r in rows(driver, "accusation_network", game=game)}
    assert ("Alice", "Dana", "traitor claim") in accused  # "Dana is evil": a side claim
    lies = {(r["liar"], r["subject"], r["claimed"], r["subject_role"]) for r in rows(driver, "traitor_lies", game=game)}
    assert ("Dana", "Dana", "faithful", "traitor") in lies  # Dana, evil, said "I am good"
    overview = rows(driver, "game_overview", game=game)[0]
    assert overview["traitor_roles"] == ["assassin", "minion"] and overview["winner"] == "evil side"
    stored = driver.execute_query("MATCH (g:Game {uid: $game}) RETURN g.side_names", game=game).records[0][0]
    assert stored == ["evil", "good"]


def test_the_information_boundary_catches_someone_elses_secret_vote(driver: neo4j.Driver,
                                                                     fresh_game: FreshGame) -> None:
    game = fresh_game(MISSION, "mission")
    assert rows(driver, "information_boundary", game=game) == []
    # plant a leak: Alice holds a memory of Dana's fail card
    driver.execute_query("""
        MATCH (alice:Player {game: $game, name: 'Alice'}), (e:Event {game: $game, id: '27'})
        CREATE (alice)-[:REMEMBERS]->(:Memory {uid: $game + '/leak', game: $game, owner: 'Alice'})-[:OF_EVENT]->(e)
        """, game=game)
    found = sorted((r["violation"], r["owner"], r["kind"], r["ballot"]) for r in rows(driver, "information_boundary",
                                                                                       game=game))
    assert found == [("not a witness", "Alice", "vote", "quest"),
                     ("someone else's secret vote", "Alice", "vote", "quest")]


def test_quests_of_a_log_without_cards_name_the_team_their_outcome_is_about(driver: neo4j.Driver,
                                                                            fresh_game: FreshGame,
                                                                            tmp_path: Path) -> None:
    objects = get_importer("avalon-nlu").convert(NLU).objects  # Avalon-NLU logs carry no quest cards
    log = tmp_path / "9avmeG.jsonl"
    log.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
    told = [o for o in objects if o.get("kind") == "outcome" and o.get("ballot") == "quest"]
    game = fresh_game(log, "nlu-quests")
    quests = rows(driver, "quests", game=game)
    assert [q["team"] for q in quests] == [o["about"] for o in told] and all(q["team"] for q in quests)
    assert [q["result"] for q in quests] == [o["result"] for o in told]
    assert all(q["fails"] is None and q["failed_by"] is None for q in quests)  # not known, not 0
    roles = {p["name"]: p["role"] for p in objects[0]["players"]}
    hidden = set(objects[0].get("traitor_roles", []))
    assert [q["hidden_on_team"] for q in quests] == [sum(roles[p] in hidden for p in o["about"]) for o in told]
