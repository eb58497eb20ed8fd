"""``graphmem model people`` on the two Avalon-NLU games of examples/ through click's CliRunner against the session's
Neo4j: both tables with their intervals, the pre-registration's commit, the same figures for a seed whatever the
number of workers, and no replay left behind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import CliRunner, Result

from graphmem.cli import main
from graphmem.validation.study import PREREGISTRATION

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

GAMES = Path(__file__).resolve().parents[2] / "examples" / "avalon-nlu"


@pytest.fixture()
def people(neo4j_uri: str, schema: object, embedder: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.chdir(tmp_path)  # no ./graphmem.toml of the developer's

    def invoke(*args: str) -> Result:  # with the session's embedder (the real model, loaded once)
        return CliRunner().invoke(main, ["--uri", neo4j_uri, "model", "people", *args],
                                  env={"GRAPHMEM_CONFIG": None, "NEO4J_URI": None}, obj=embedder)
    return invoke


def test_people_prints_both_tables_the_same_for_a_seed_with_any_number_of_workers(
        people: Any, driver: neo4j.Driver) -> None:
    options = ["--profiles", "balanced", "--resamples", "200"]
    text = people(str(GAMES), *options, "--workers", "3")
    assert text.exit_code == 0, text.output
    out = text.output
    assert f"pre-registered at commit {PREREGISTRATION}" in out
    for condition in ("record", "perfect", "balanced", "decay (fitted", "primacy"):
        assert f"| {condition}" in out, condition
    assert "log-loss" in out and "AUC" in out and "95% interval" in out
    assert "Vote claims:" in out and "exact 95% interval" in out and "H1 (" in out and "H2 (" in out
    records, _, _ = driver.execute_query("MATCH (g:Game) WHERE g.uid CONTAINS '.replay-' RETURN count(g) AS n")
    assert records[0]["n"] == 0  # the replays are deleted

    one = people(str(GAMES), *options, "--workers", "1", "--json")
    assert one.exit_code == 0, one.output
    report = json.loads(one.output)
    assert report["preregistration"] == PREREGISTRATION
    assert report["beliefs"]["n"] == 10  # 9avmeG's 8 and oeEva0's 2 beliefs of servants and Percival
    assert [c["name"] for c in report["beliefs"]["conditions"]] == [
        "record", "perfect", "balanced", "decay (fitted)", "primacy"]
    for condition in report["beliefs"]["conditions"]:  # the text run printed the same figures
        assert f"{condition['log_loss']:.3f}" in out
        if condition["name"] != "perfect":
            assert f"{condition['low']:+.3f} to {condition['high']:+.3f}" in out


def test_people_needs_two_games_with_beliefs_and_says_so_before_replaying(people: Any) -> None:
    result = people(str(GAMES / "9avmeG.json"), str(GAMES / "3YjxjN.json"))
    assert result.exit_code == 2
    assert "needs two games with stated beliefs of the sample; 1 of the 2 given have them" in result.output
