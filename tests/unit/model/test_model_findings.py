"""The nine published findings of docs/model.md: every figure inside its target range with the shipped defaults, and
``graphmem model findings`` printing them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from graphmem.cli.model_cmd import findings_table
from graphmem.model.findings import (
    FINDINGS,
    Finding,
    co_witness_contamination,
    forgetting_curve,
    misattribution,
    run_findings,
    working_memory_capacity,
)
from tests.unit.model.model_strategies import PARAMS

KEYS = ("forgetting_curve", "testing_effect", "spacing_effect", "flashbulb", "detail_decline", "source_amnesia",
        "co_witness", "misattribution", "working_memory")


@pytest.fixture(scope="module")
def findings() -> dict[str, Finding]:
    return {f.key: f for f in run_findings()}


def test_there_are_the_nine_findings_of_spec_18_in_its_order(findings: dict[str, Finding]) -> None:
    assert tuple(findings) == KEYS and len(FINDINGS) == 9


@pytest.mark.parametrize("key", KEYS)
def test_every_finding_is_inside_its_target_range(findings: dict[str, Finding], key: str) -> None:
    assert findings[key].inside, findings[key]


def test_the_figures_behind_the_verdicts(findings: dict[str, Finding]) -> None:
    """The numbers themselves, against the ranges of docs/model.md (so a verdict cannot pass on a wrong figure)."""
    v = {k: f.values for k, f in findings.items()}
    assert v["forgetting_curve"]["r2_power"] > v["forgetting_curve"]["r2_exponential"]
    assert 0.1 <= v["forgetting_curve"]["exponent"] <= 0.5
    assert v["testing_effect"]["with_recall"] > v["testing_effect"]["without_recall"]
    assert v["testing_effect"]["worst_gap"] >= -1e-12
    assert v["spacing_effect"]["gain_long"] > v["spacing_effect"]["gain_short"] > 1.0
    fb = v["flashbulb"]
    assert fb["strength"] >= 0.8
    assert abs(fb["flashbulb_5"] - fb["ordinary_5"]) <= 0.10 and abs(fb["flashbulb_10"] - fb["ordinary_10"]) <= 0.10
    assert fb["flashbulb_10"] < fb["flashbulb_5"] < 1.0  # consistency declines with recalls, for flashbulbs too
    assert 0.40 <= v["detail_decline"]["kept"] <= 0.80
    for name in ("analytical", "intuitive", "balanced", "emotional", "paranoid"):
        assert v["source_amnesia"][f"source_{name}"] < v["source_amnesia"][f"content_{name}"]
    cw = v["co_witness"]
    assert 0.50 <= cw["balanced"] <= 0.85
    assert cw["analytical"] == min(cw.values()) and cw["emotional"] == max(cw.values())
    ma = v["misattribution"]
    assert 0.10 <= ma["balanced"] <= 0.40
    assert ma["sugg_0.2"] < ma["sugg_0.35"] < ma["sugg_0.5"] < ma["sugg_0.6"]
    assert all(3 <= c <= 5 for c in v["working_memory"].values())


def test_findings_are_seeded_replays(findings: dict[str, Finding]) -> None:
    assert co_witness_contamination(None, 0) == findings["co_witness"]
    assert co_witness_contamination(None, 1).values != findings["co_witness"].values


def test_a_finding_outside_its_range_says_so() -> None:
    """The verdicts can fail: the exponential curve is not the forgetting curve people show, a paranoid profile
    of 6 items is outside Cowan's 4 +/- 1, and with suggestibility 0 nobody misattributes."""
    assert not forgetting_curve(replace(PARAMS, curve="exponential")).inside
    six = replace(PARAMS, profiles={**PARAMS.profiles,
                                    "paranoid": replace(PARAMS.profile("paranoid"), working_memory_capacity=6)})
    assert not working_memory_capacity(six).inside
    deaf = replace(PARAMS, profiles={**PARAMS.profiles,
                                     "balanced": replace(PARAMS.profile("balanced"), suggestibility_factor=0.0)})
    outcome = misattribution(deaf)
    assert outcome.values["balanced"] == 0.0 and not outcome.inside



def test_the_command_prints_the_table_last(run: Any, findings: dict[str, Finding]) -> None:
    result = run("model", "findings")
    assert result.exit_code == 0, result.output
    last = result.output.rstrip("\n").split("\n")[-12:]  # what `graphmem model findings | tail -12` shows
    assert last[0].split("|")[1].strip() == "finding" and set(last[1]) <= {"|", "-"}
    rows = last[2:11]
    for line, finding in zip(rows, findings.values()):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells == [finding.phenomenon, finding.figure, finding.published, finding.target, "inside"]
    assert last[11] == "9 of 9 findings inside their target range"
    assert "shipped default parameters" in result.output


def test_the_command_as_json(run: Any, findings: dict[str, Finding]) -> None:
    result = run("model", "findings", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["key"] for r in rows] == list(KEYS)
    assert all(r["inside"] for r in rows)
    assert rows[6]["values"]["balanced"] == findings["co_witness"].values["balanced"]
    assert {"phenomenon", "measure", "published", "target", "figure"} <= set(rows[0])


def test_the_command_uses_the_configured_parameters(run: Any, tmp_path: Path) -> None:
    (tmp_path / "graphmem.toml").write_text('[parameters]\ncurve = "exponential"\n', encoding="utf-8")
    result = run("model", "findings")
    assert result.exit_code == 0, result.output
    # the exponential curve is the wrong shape, and it also wears details away too fast (0.39 kept)
    assert "7 of 9 findings inside their target range" in result.output
    assert "OUTSIDE" in next(line for line in result.output.splitlines() if "Wixted" in line)
    assert "OUTSIDE" in next(line for line in result.output.splitlines() if "Neisser" in line)


def test_docs_show_the_table_as_the_command_prints_it(findings: dict[str, Finding]) -> None:
    """docs/model.md's Fidelity section holds the very table the command prints with the shipped defaults."""
    doc = (Path(__file__).resolve().parents[3] / "docs" / "model.md").read_text(encoding="utf-8")
    lines = findings_table(list(findings.values()))
    assert "\n".join(lines[:-1]) in doc and lines[-1] in doc
