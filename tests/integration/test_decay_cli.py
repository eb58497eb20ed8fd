"""``graphmem phase advance`` through click's CliRunner against the session's Neo4j."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import CliRunner, Result

from graphmem.cli import main
from tests.integration.helpers import clear

pytestmark = pytest.mark.neo4j


@pytest.fixture()
def game(driver: neo4j.Driver, schema: object) -> Iterator[str]:
    """A game at phase 0 with two memories of Ann encoded at phase 0 (S 10 and a flashbulb) and one thought."""
    game_id = f"decay-{uuid.uuid4().hex[:8]}"
    driver.execute_query(
        "CREATE (g:Game {uid: $game, game: $game, curve: 'exponential', decayed_to: 0, last_phase: 3})"
        "-[:HAS_PLAYER]->(p:Player {uid: $game + '/player/Ann', game: $game, name: 'Ann', wm_capacity: 4}) "
        "WITH p UNWIND $rows AS r "
        "CREATE (p)-[:REMEMBERS]->(m:Memory {uid: $game + '/memory/Ann/' + r.id, game: $game, owner: 'Ann', "
        "  t_enc: 0, t_ref: 0, e_ref: 1.0, s: r.s, s_enc: r.s, floor: r.floor, c0: 1.0, source_k: 1.5, "
        "  source_type: 'first_hand', threshold: 0.18, state: 'active', decayed_to: 0})",
        game=game_id, rows=[{"id": "1", "s": 10.0, "floor": 0.0}, {"id": "2", "s": 3.0, "floor": 0.8}])
    driver.execute_query(
        "MATCH (p:Player {uid: $game + '/player/Ann'}) CREATE (p)-[:THINKS]->(:Thought {uid: $game + '/thought/Ann/1', "
        "game: $game, player: 'Ann', content: 'watch Marcus', priority: 0.9, persistence: 2, pushed_phase: 0, "
        "expires_phase: 2, seq: 0, trigger: 'api'})", game=game_id)
    yield game_id
    clear(driver, game_id)


@pytest.fixture()
def run(neo4j_uri: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.chdir(tmp_path)  # no ./graphmem.toml of the developer's
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(main, ["--uri", neo4j_uri, "phase", "advance", *args],
                             env={"GRAPHMEM_CONFIG": None, "NEO4J_URI": None})
    return invoke


def test_advance_prints_a_summary_and_moves_one_phase(run: Any, game: str, driver: neo4j.Driver) -> None:
    result = run("--game", game)
    assert result.exit_code == 0, result.output
    assert f"Game {game} decayed from phase 0 to phase 1" in result.output
    assert "2 memories updated (2 active, 0 warm, 0 archived)" in result.output
    assert "1 of 1 thoughts held" in result.output
    records, _, _ = driver.execute_query("MATCH (g:Game {uid: $game}) RETURN g.decayed_to AS d", game=game)
    assert records[0]["d"] == 1


def test_advance_to_a_phase_as_json(run: Any, game: str) -> None:
    result = run("--game", game, "--to", "12", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    # exp(-12/10) = 0.30: warm for Ann (threshold 0.18); the flashbulb stays active at its floor 0.8
    assert report["states"] == {"active": 1, "warm": 1, "archived": 0}
    assert (report["from_phase"], report["to_phase"], report["memories"]) == (0, 12, 2)
    assert (report["thoughts"], report["thoughts_active"], report["curve"]) == (1, 0, "exponential")


def test_unknown_game_exits_1_naming_the_known_games(run: Any, game: str) -> None:
    result = run("--game", f"{game}-nope")
    assert result.exit_code == 1
    assert f"no game '{game}-nope'" in result.output and game in result.output.split("is stored")[1]


def test_to_below_the_current_phase_exits_2(run: Any, game: str) -> None:
    assert run("--game", game, "--to", "5").exit_code == 0
    result = run("--game", game, "--to", "4")
    assert result.exit_code == 2
    assert "at phase 5" in result.output and "backwards" in result.output


def test_a_phase_far_past_the_end_is_refused_and_nothing_moves(run: Any, game: str, driver: neo4j.Driver) -> None:
    last = driver.execute_query("MATCH (g:Game {uid: $game}) RETURN coalesce(g.last_phase, 0) AS p",
                                game=game).records[0]["p"]
    for to in (str(last + 1001), "9223372036854775807"):
        result = run("--game", game, "--to", to)
        assert result.exit_code == 2 and "past its end" in result.output and "Traceback" not in result.output
    assert driver.execute_query("MATCH (g:Game {uid: $game}) RETURN g.decayed_to AS d", game=game).records[0]["d"] == 0
    assert run("--game", game, "--to", str(last + 1000)).exit_code == 0
