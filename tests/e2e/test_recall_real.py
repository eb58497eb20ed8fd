"""Recall on the real LLM Traitors games (the session's ``real_games`` ingest), real model, real Neo4j.

Nothing here writes to the real games (dry runs, earlier phases, decay to the phase they are at), so the other
end-to-end tests see them as ingested.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import neo4j
import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.ingest.pipeline import IngestSummary
from graphmem.jobs.decay import advance
from graphmem.model.params import Parameters
from graphmem.recall import RecallResult, recall
from graphmem.recall.prompt import check_block

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
SOURCE_LABELS = ("[You witnessed]", " told you]", "[You overheard ", "[Said at the round table by ",
                 "[You worked it out]", "[Source unclear]")


def players(driver: neo4j.Driver, game: str, role: str | None = None) -> list[str]:
    records = driver.execute_query("MATCH (:Game {uid: $game})-[:HAS_PLAYER]->(p:Player) "
                                   "WHERE $role IS NULL OR p.role = $role RETURN p.name AS name ORDER BY name",
                                   game=game, role=role).records
    return [r["name"] for r in records]


def faithfuls(driver: neo4j.Driver, game: str) -> list[str]:
    """Players who were never traitors: faithful now and never recruited."""
    records = driver.execute_query("""
        MATCH (:Game {uid: $game})-[:HAS_PLAYER]->(p:Player) WHERE p.role <> 'traitor'
        AND NOT EXISTS { MATCH (e:Event {game: $game, kind: 'recruit'})-[:TARGETS]->(p) }
        RETURN p.name AS name ORDER BY name""", game=game).records
    return [r["name"] for r in records]


def decayed_to(driver: neo4j.Driver, game: str) -> int:
    return int(driver.execute_query("MATCH (g:Game {uid: $game}) RETURN g.decayed_to AS t", game=game)
               .records[0]["t"])


@pytest.fixture(scope="module")
def games(real_games: IngestSummary) -> list[str]:
    return sorted(g.game for g in real_games.per_game)


def dry(driver: neo4j.Driver, params: Parameters, embedder: Any, game: str, player: str,
        **options: Any) -> RecallResult:
    return recall(driver, None, game, player, params=params, embedder=embedder, dry_run=True, **options)


def test_a_faithfuls_final_block_follows_the_spec_layout_and_shows_sources(
        driver: neo4j.Driver, params: Parameters, embedder: Any, games: list[str]) -> None:
    checked = 0
    for game in games[:10]:
        for player in faithfuls(driver, game):
            result = dry(driver, params, embedder, game, player, topic="Who is the traitor?")
            block = result.prompt()
            assert check_block(block) == [], (game, player, block)
            if not result.memories:
                continue
            numbered = [line for line in block.splitlines() if line[:1].isdigit()]
            assert len(numbered) == len(result.memories)
            # every line shows where it came from: a source label, a flashbulb, or the owner's own words or deed
            # ("You said ...", "You voted ...", docs/model.md#source-memory), which carry no label and never "[Source
            # unclear]"
            for line, memory in zip(numbered, result.memories):
                if memory.own:
                    assert "] You " in line and "[Source unclear]" not in line and "[You witnessed]" not in line, line
                else:
                    assert any(label in line for label in SOURCE_LABELS) or "[FLASHBULB]" in line, line
            checked += 1
    assert checked >= 10


def test_every_marker_appears_over_the_course_of_a_game(driver: neo4j.Driver, params: Parameters,
                                                        embedder: Any, games: list[str]) -> None:
    seen: set[str] = set()
    for game in games[:5]:
        last = decayed_to(driver, game)
        for at in sorted({1, last // 3, (2 * last) // 3, last}):
            for player in players(driver, game):
                result = dry(driver, params, embedder, game, player, at=at, k=30)
                seen |= {str(m.marker) for m in result.memories}
                assert check_block(result.prompt()) == []
        if {"CLEAR", "FUZZY", "VAGUE"} <= seen:
            break
    assert {"CLEAR", "FUZZY", "VAGUE"} <= seen


def test_no_faithful_ever_recalls_a_traitors_only_event(driver: neo4j.Driver, params: Parameters, embedder: Any,
                                                       games: list[str]) -> None:
    recalled = 0
    for game in games:
        secret = {r["id"] for r in driver.execute_query(
            "MATCH (e:Event {game: $game}) WHERE e.channel = 'traitors' OR e.ballot = 'murder' RETURN e.id AS id",
            game=game).records}
        last = decayed_to(driver, game)
        for player in faithfuls(driver, game):
            for topic, at in (("tonight we murder them, traitors meeting", last), (None, last // 2)):
                data = json.loads(dry(driver, params, embedder, game, player, topic=topic, at=at, k=50).to_json())
                for m in data["memories"]:
                    assert m["uid"].startswith(f"{game}/memory/{player}/"), m["uid"]
                    assert m["event"] not in secret, (game, player, m["uid"])
                    recalled += 1
    assert recalled > 1000


def test_same_seed_on_the_same_state_replays_exactly(driver: neo4j.Driver, params: Parameters, embedder: Any,
                                                     games: list[str]) -> None:
    game = games[0]
    phase = decayed_to(driver, game)
    advance(driver, None, game, phase, params)
    advance(driver, None, game, phase, params)
    for player in players(driver, game)[:4]:
        first = dry(driver, params, embedder, game, player, topic="votes at the round table", seed=11)
        second = dry(driver, params, embedder, game, player, topic="votes at the round table", seed=11)
        assert first.to_json() == second.to_json()
        assert first.prompt() == second.prompt()


@pytest.fixture()
def memories_of(driver: neo4j.Driver) -> Iterator[Any]:
    def read(game: str) -> dict[str, dict[str, Any]]:
        records = driver.execute_query("MATCH (m:Memory {game: $game}) RETURN m.uid AS uid, properties(m) AS p",
                                       game=game).records
        return {r["uid"]: r["p"] for r in records}
    yield read


def test_cli_dry_run_changes_no_property_of_any_memory(neo4j_uri: str, driver: neo4j.Driver, games: list[str],
                                                        memories_of: Any) -> None:
    game = games[1]
    before = memories_of(game)
    for player in players(driver, game)[:3]:
        out = CliRunner().invoke(main, ["--uri", neo4j_uri, "recall", "--game", game, "--player", player,
                                        "--topic", "Who do you suspect?", "--dry-run"])
        assert out.exit_code == 0, out.output
        assert check_block(out.stdout) == []
    assert memories_of(game) == before
