"""A Werewolf-style game (roles werewolf, seer, villager; ``"traitor_roles": ["werewolf"]``) ingested into a real
Neo4j: the werewolves are the traitor side for perception, encoding, the analysis queries and the pictures.

tests/data/logs/werewolf.jsonl: Wanda and Bruno (werewolves) plan Otto's murder on the ``traitors`` channel and vote
for it; Otto (villager) is murdered; Seth (seer) calls Bruno a werewolf; Seth and Vera vote Bruno out, who is
revealed a werewolf; the next day Wanda and Seth vote out Vera, a villager.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import neo4j
import pytest

from graphmem.analysis import analysis_query, run_read
from graphmem.viz.html import render_html
from graphmem.viz.style import OTHER_SIDE_COLOUR, TRAITOR_SIDE_COLOUR
from graphmem.viz.told import fetch_told_graph, player_colour

pytestmark = pytest.mark.neo4j
WEREWOLF = Path(__file__).resolve().parents[1] / "data" / "logs" / "werewolf.jsonl"
WOLVES = {"Wanda", "Bruno"}


@pytest.fixture()
def game(fresh_game: Callable[..., str]) -> str:
    """werewolf.jsonl under a fresh game id, ingested (deleted afterwards)."""
    return fresh_game(WEREWOLF, "werewolf")


def rows(driver: neo4j.Driver, name: str, **params: Any) -> list[dict[str, Any]]:
    return run_read(driver, None, analysis_query(name), params).rows


def rememberers(driver: neo4j.Driver, game: str, event: str) -> set[str]:
    records = driver.execute_query(
        "MATCH (p:Player)-[:REMEMBERS]->(m:Memory)-[:OF_EVENT]->(:Event {uid: $uid}) WHERE m.kind <> 'lesson' "
        "RETURN p.name AS name", uid=f"{game}/event/{event}").records
    return {r["name"] for r in records}


def test_the_game_node_stores_the_traitor_roles(driver: neo4j.Driver, game: str) -> None:
    stored = driver.execute_query("MATCH (g:Game {uid: $g}) RETURN g.traitor_roles AS r", g=game).records
    assert stored[0]["r"] == ["werewolf"]
    overview = rows(driver, "game_overview", game=game)[0]
    assert (overview["traitor_roles"], overview["traitors"], overview["players"]) == (["werewolf"], 2, 5)


def test_the_wolves_talk_is_remembered_by_the_wolves_only(driver: neo4j.Driver, game: str) -> None:
    assert rememberers(driver, game, "wolves-talk") == WOLVES  # the speaker remembers her own words
    assert rememberers(driver, game, "wolves-reply") == WOLVES
    assert rememberers(driver, game, "murder-vote-wanda") == WOLVES
    assert rememberers(driver, game, "murder-vote-bruno") == WOLVES


def test_the_wolves_are_not_afraid_of_their_own_kill(driver: neo4j.Driver, game: str) -> None:
    records = driver.execute_query(
        "MATCH (p:Player)-[:REMEMBERS]->(m:Memory)-[:OF_EVENT]->(:Event {uid: $uid}) "
        "RETURN p.name AS name, m.emotion_json AS emotion", uid=f"{game}/event/otto-dies").records
    emotions = {r["name"]: json.loads(r["emotion"]) for r in records}
    assert set(emotions) == {"Wanda", "Bruno", "Seth", "Vera"}
    assert all("fear" not in emotions[w] for w in WOLVES)
    assert emotions["Seth"].get("fear", 0) > 0 and emotions["Vera"].get("fear", 0) > 0


def test_banishing_a_werewolf_is_no_mistake_but_banishing_a_villager_is(driver: neo4j.Driver, game: str) -> None:
    records = driver.execute_query(
        "MATCH (p:Player)-[:REMEMBERS]->(m:Memory {kind: 'lesson'})-[:OF_EVENT]->(e:Event) WHERE m.game = $g "
        "RETURN p.name AS name, e.id AS event, m.text AS text ORDER BY name", g=game).records
    lessons = [(r["name"], r["event"]) for r in records]
    assert ("Seth", "bruno-out") not in lessons and ("Vera", "bruno-out") not in lessons
    assert lessons == [("Seth", "vera-out"), ("Wanda", "vera-out")]
    assert all("Vera" in r["text"] and "mistake" in r["text"] for r in records)


def test_information_boundary_holds_and_catches_a_leak(driver: neo4j.Driver, game: str) -> None:
    assert rows(driver, "information_boundary", game=game) == []
    # a villager holding the wolves' talk is a leak the check reports (a witness, so only the role test catches it)
    driver.execute_query(
        "MATCH (p:Player {uid: $p}), (e:Event {uid: $e}) "
        "CREATE (p)-[:REMEMBERS]->(:Memory {uid: $m, game: $g})-[:OF_EVENT]->(e), (e)-[:WITNESSED_BY]->(p)",
        p=f"{game}/player/Vera", e=f"{game}/event/wolves-talk", m=f"{game}/memory/Vera/leak", g=game)
    leaks = rows(driver, "information_boundary", game=game)
    assert [(r["violation"], r["owner"], r["owner_role"]) for r in leaks] == \
        [("faithful holds traitors-only memory", "Vera", "villager")]


def test_banishments_say_the_werewolf_was_a_traitor_side_banishment(driver: neo4j.Driver, game: str) -> None:
    found = {r["banished"]: r for r in rows(driver, "banishments", game=game)}
    assert (found["Bruno"]["role_revealed"], found["Bruno"]["traitor_banished"]) == ("werewolf", True)
    assert (found["Vera"]["role_revealed"], found["Vera"]["traitor_banished"]) == ("villager", False)
    assert found["Bruno"]["votes"] == ["Seth -> Bruno", "Vera -> Bruno", "Wanda* -> Vera", "Bruno* -> Seth"]


def test_the_seers_accusation_and_the_sides_in_the_queries(driver: neo4j.Driver, game: str) -> None:
    claims = [(r["accuser"], r["accused"]) for r in rows(driver, "accusation_network", game=game, day=None,
                                                         include_murder_votes=False) if r["kind"] == "traitor claim"]
    assert claims == [("Seth", "Bruno")]
    sides = {r["player"]: r["traitor_side"] for r in rows(driver, "players", game=game)}
    assert sides == {"Wanda": True, "Bruno": True, "Seth": False, "Vera": False, "Otto": False}


def test_viz_colours_the_werewolves_red_and_names_the_games_roles(driver: neo4j.Driver, game: str) -> None:
    graph = fetch_told_graph(driver, None, game)
    colours = {name: player_colour(graph, name) for name in graph.nodes}
    assert colours == {"Wanda": TRAITOR_SIDE_COLOUR, "Bruno": TRAITOR_SIDE_COLOUR, "Seth": OTHER_SIDE_COLOUR,
                       "Vera": OTHER_SIDE_COLOUR, "Otto": OTHER_SIDE_COLOUR}
    legend = re.findall(r'background: (#[0-9a-f]{6})"></span>([^<]+)<br>', render_html(graph))
    assert legend == [(OTHER_SIDE_COLOUR, "seer"), (OTHER_SIDE_COLOUR, "villager"), (TRAITOR_SIDE_COLOUR, "werewolf")]


def test_a_fellow_wolf_who_votes_with_the_liar_is_no_believer(driver: neo4j.Driver, fresh_game: Callable[..., str]) -> None:
    # Wanda lies at two round tables (claims derived from the words). Day 2: "Seth is a werewolf.", and only her
    # fellow wolf Bruno votes for Seth: he knows better, so nobody believed it. Day 3: "Vera is a werewolf.", and
    # Seth votes Vera out: he believed it.
    def lie(event_id: str, text: str) -> str:
        return json.dumps({"kind": "say", "id": event_id, "speaker": "Wanda", "to": "all", "channel": "roundtable",
                           "text": text})

    def with_lies(lines: list[str]) -> list[str]:
        day2 = next(i for i, line in enumerate(lines) if '"v-seth"' in line)
        day3 = next(i for i, line in enumerate(lines) if '"v2-wanda"' in line)
        return [*lines[:day2], lie("lie-seth", "Seth is a werewolf."), *lines[day2:day3],
                lie("lie-vera", "Vera is a werewolf."), *lines[day3:]]

    game = fresh_game(WEREWOLF, "werewolf-lie", edit=with_lies)
    found = {r["event"].rsplit("/", 1)[-1]: r for r in rows(driver, "traitor_lies", game=game)}
    assert {k: (r["liar"], r["subject"], r["subject_role"], r["claimed"]) for k, r in found.items()} == {
        "lie-seth": ("Wanda", "Seth", "faithful", "traitor"), "lie-vera": ("Wanda", "Vera", "faithful", "traitor")}
    assert sorted(found["lie-seth"]["listeners"]) == ["Bruno", "Seth", "Vera"]
    assert found["lie-seth"]["believers"] == []  # Bruno voted for Seth, but he is a wolf himself
    assert sorted(found["lie-vera"]["listeners"]) == ["Seth", "Vera"] and found["lie-vera"]["believers"] == ["Seth"]
