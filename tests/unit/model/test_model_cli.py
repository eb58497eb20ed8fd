"""``graphmem model curve`` through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

KINDS = ("mundane", "moderate", "salient", "flashbulb")



def _series(rows: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return sorted((r for r in rows if r["kind"] == kind), key=lambda r: r["phase"])


def test_json_curve_of_the_analytical_profile(run: Any) -> None:
    result = run("model", "curve", "--profile", "analytical", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {tuple(sorted(r)) for r in rows} == {("kind", "marker", "phase", "strength")}
    assert len(rows) == 4 * 13  # phases 0..12
    for kind in KINDS[:3]:
        strengths = [r["strength"] for r in _series(rows, kind)]
        assert all(b < a for a, b in zip(strengths, strengths[1:])), kind
    salient = _series(rows, "salient")
    assert salient[0]["strength"] == pytest.approx(0.75 + 0.25 * 0.9) and salient[0]["marker"] == "CLEAR"
    flash = _series(rows, "flashbulb")
    assert flash[0]["strength"] == 1.0
    assert all(r["strength"] >= 0.8 and r["marker"] == "FLASHBULB" for r in flash)
    mundane = _series(rows, "mundane")
    assert mundane[-1]["marker"] is None  # forgotten: below the threshold


def test_phases_and_power_curve(run: Any) -> None:
    pw = json.loads(run("model", "curve", "--profile", "balanced", "--json", "--phases", "3").output)
    exp = json.loads(run("model", "curve", "--profile", "balanced", "--json", "--phases", "3",
                         "--curve", "exponential").output)
    assert len(exp) == len(pw) == 4 * 4
    moderate_exp, moderate_pw = _series(exp, "moderate"), _series(pw, "moderate")
    assert moderate_exp[0]["strength"] == moderate_pw[0]["strength"]
    assert moderate_exp[3]["strength"] != moderate_pw[3]["strength"]


def test_table_output(run: Any) -> None:
    result = run("model", "curve", "--profile", "paranoid", "--phases", "4")
    assert result.exit_code == 0, result.output
    for word in ("phase", *KINDS, "CLEAR", "FLASHBULB", "paranoid"):
        assert word in result.output


def test_unknown_profile_exits_2_and_lists_the_known_ones(run: Any) -> None:
    result = run("model", "curve", "--profile", "nosuch")
    assert result.exit_code == 2
    for name in ("analytical", "balanced", "emotional", "intuitive", "paranoid"):
        assert name in result.output


def test_profiles_from_the_configuration_file(run: Any, tmp_path: Path) -> None:
    config = tmp_path / "mine.toml"
    config.write_text("[profiles.forgetful]\nbase_decay_rate = 0.6\n", encoding="utf-8")
    mine = json.loads(run("--config", str(config), "model", "curve", "--profile", "forgetful", "--json").output)
    balanced = json.loads(run("model", "curve", "--profile", "balanced", "--json").output)
    assert _series(mine, "moderate")[4]["strength"] < _series(balanced, "moderate")[4]["strength"]


def test_invalid_profile_in_the_configuration_file_exits_1(run: Any, tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("[profiles.mine]\nretrieval_threshold = 0.5\n", encoding="utf-8")
    result = run("--config", str(config), "model", "curve", "--profile", "mine")
    assert result.exit_code == 1
    assert "bad.toml" in result.output and "profiles.mine.retrieval_threshold" in result.output
    assert "[0, 0.4)" in result.output
