"""The nine published findings of docs/model.md: every figure inside its target range with the shipped defaults, every
row able to fail (a broken parameter, or the law behind the row, puts it outside), and ``graphmem model findings``
printing them. The findings are computed once per session (``findings`` and ``shared_findings_command`` of
conftest.py); co-witness contamination uses the real shipped embedding model."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.cli.model_cmd import findings_table
from graphmem.embedding import Embedder
from graphmem.ingest.texts import wording
from graphmem.logs.reader import read_game_log
from graphmem.logs.schema import ObserveEvent, SayEvent, VoteEvent
from graphmem.model import distortion, reconsolidation
from graphmem.model import findings as model_findings  # its testing_effect is no test for pytest to collect
from graphmem.model.findings import (
    ACCOUNTS_LOG,
    FINDINGS,
    Accounts,
    Finding,
    co_witness_contamination,
    detail_decline,
    flashbulb_consistency,
    forgetting_curve,
    misattribution,
    source_amnesia,
    spacing_effect,
    working_memory_capacity,
)
from graphmem.model.forgetting import stability_after_recall
from graphmem.model.params import Parameters, Profile
from tests.unit.model.model_strategies import PARAMS

KEYS = ("forgetting_curve", "testing_effect", "spacing_effect", "flashbulb", "detail_decline", "source_amnesia",
        "co_witness", "misattribution", "working_memory")
SHIPPED = ("analytical", "intuitive", "balanced", "emotional", "paranoid")


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
    assert fb["strength"] >= 0.8 > fb["ordinary_strength"]  # confidence stays high, the everyday memory's does not
    assert abs(fb["flashbulb_5"] - fb["ordinary_5"]) <= 0.10 and abs(fb["flashbulb_10"] - fb["ordinary_10"]) <= 0.10
    assert fb["flashbulb_10"] < fb["flashbulb_5"] < 1.0  # consistency declines with recalls, for flashbulbs too
    assert 0.40 <= v["detail_decline"]["kept"] <= 0.80
    for name in SHIPPED:
        assert v["source_amnesia"][f"source_{name}"] < v["source_amnesia"][f"content_{name}"]
    cw = v["co_witness"]
    assert 0.50 <= cw["balanced"] <= 0.85
    shares = {n: cw[n] for n in SHIPPED}
    assert cw["analytical"] == min(shares.values()) and cw["emotional"] == max(shares.values())
    assert cw["cosine_max"] < 0.95  # no pair of accounts at an assumed cosine of 0.9 or more: the real texts' cosines
    ma = v["misattribution"]
    assert 0.10 <= ma["balanced"] <= 0.40
    # in the order of the profiles' own SuggestibilityFactor (emotional 0.6, intuitive 0.5, balanced 0.35,
    # analytical and paranoid 0.2), each with its own full profile
    assert ma["emotional"] > ma["intuitive"] > ma["balanced"] > max(ma["analytical"], ma["paranoid"])
    assert min(ma["analytical"], ma["paranoid"]) > 0.0
    assert all(3 <= c <= 5 for c in v["working_memory"].values())


def test_findings_are_seeded_replays(findings: dict[str, Finding], accounts: tuple[Accounts, ...]) -> None:
    assert co_witness_contamination(None, 0, accounts) == findings["co_witness"]
    assert co_witness_contamination(None, 1, accounts).values != findings["co_witness"].values


# -- the co-witness accounts: the product's own stored texts, embedded by the shipped model --------------------------

def test_the_accounts_are_the_texts_graphmem_stores_for_the_witness(accounts: tuple[Accounts, ...]) -> None:
    """Each pair is what graphmem embeds for the witness: their own memory of the event as graphmem/ingest/texts.py
    words it, and their memory of the co-witness telling them about it, the statement with its speaker; 10 written
    pairs and 3 from real games."""
    log = read_game_log(ACCOUNTS_LOG)
    by_id = {e.event.id: e.event for e in log.events}
    assert [a.event for a in accounts] == [f"pair{i}" for i in range(1, 14)]
    for a in accounts:
        event, told = by_id[a.event], by_id[f"{a.event}-told"]
        assert isinstance(told, SayEvent) and isinstance(event, ObserveEvent | VoteEvent)
        witness = told.to[0]
        assert a.witness == wording(event, witness, 1).text
        assert a.told == f"{told.speaker}: {' '.join(told.text.split())}"
    assert accounts[10].witness == "Gwendolyn voted to banish Riley"
    assert accounts[10].told.startswith("Fletcher: Casey, we gotta keep an eye on Gwendolyn. She voted for Riley")


def test_the_cosines_are_the_shipped_models(accounts: tuple[Accounts, ...], embedder: Any) -> None:
    cosines = [a.cosine for a in accounts]
    assert min(cosines) >= 0.45 and max(cosines) < 0.95  # 0.52-0.83 when written: real tellings, never identical
    first = embedder.encode([accounts[0].witness, accounts[0].told])
    assert accounts[0].cosine == pytest.approx(float(first[0] @ first[1]), abs=1e-6)


def test_co_witness_contamination_needs_the_accounts() -> None:
    with pytest.raises(Exception, match="co_witness.jsonl"):
        co_witness_contamination(None, 0, ())


# -- every row can fail --------------------------------------------------------------------------------------------

def _profile(params: Parameters, name: str, **changes: Any) -> Parameters:
    profile: Profile = replace(params.profile(name), **changes)
    return replace(params, profiles={**params.profiles, name: profile})


def _group(params: Parameters, group: str, **changes: Any) -> Parameters:
    return replace(params, **{group: replace(getattr(params, group), **changes)})


def test_forgetting_curve_fails_on_the_exponential_curve() -> None:
    assert not forgetting_curve(replace(PARAMS, curve="exponential")).inside


def test_testing_effect_fails_when_a_recall_keeps_the_stability(monkeypatch: pytest.MonkeyPatch) -> None:
    """The law behind the row: a recall that re-stores the memory without growing its stability leaves it weaker
    on the power curve at later phases (the defect docs/model.md#what-a-recall-does-to-forgetting removed)."""
    monkeypatch.setattr(reconsolidation, "stability_after_recall", lambda s, gap, curve, gain: s)
    outcome = model_findings.testing_effect(PARAMS)
    assert not outcome.inside and outcome.values["worst_gap"] < 0


def test_spacing_effect_fails_without_a_gain_that_grows_with_the_gap() -> None:
    flat = _group(replace(PARAMS, curve="exponential"), "reconsolidation", rehearsal_gain=0.0)
    assert stability_after_recall(5.0, 10, "exponential", 0.0) == stability_after_recall(5.0, 1, "exponential", 0.0)
    assert not spacing_effect(flat).inside


def test_flashbulb_fails_when_its_details_drift_with_its_own_stability(monkeypatch: pytest.MonkeyPatch) -> None:
    """The law of docs/model.md#flashbulb-memories broken (the distortion risk reads the flashbulb's own large
    stability): flashbulbs keep far more details than everyday memories and the row is outside."""
    monkeypatch.setattr(reconsolidation, "distortion_stability", lambda state, profile, params=None: state.s_enc)
    outcome = flashbulb_consistency(PARAMS)
    assert not outcome.inside and outcome.values["largest_gap"] > 0.10


def test_flashbulb_fails_when_its_strength_is_not_kept() -> None:
    weak = _group(PARAMS, "flashbulb", floor=0.0, decay_rate=1.0)
    outcome = flashbulb_consistency(weak)
    assert not outcome.inside and outcome.values["strength"] < 0.8


def test_detail_decline_fails_when_details_are_never_lost() -> None:
    keen = _profile(PARAMS, "balanced", detail_memory_bias=1.0, temporal_memory_bias=1.0)
    outcome = detail_decline(keen)
    assert not outcome.inside and outcome.values["kept"] > 0.80


def test_source_amnesia_fails_when_the_source_never_becomes_unknown() -> None:
    assert not source_amnesia(_group(PARAMS, "source", unknown_below=0.0)).inside


def test_co_witness_fails_at_the_old_closeness(accounts: tuple[Accounts, ...]) -> None:
    """With closeness full only at cosine 1 (similarity.same_account 1.0, the rule before), the real tellings of an
    event lend too rarely: the share falls below 0.50 (the failure the row was rebuilt for)."""
    outcome = co_witness_contamination(_group(PARAMS, "similarity", same_account=1.0), 0, accounts)
    assert not outcome.inside and outcome.values["balanced"] < 0.50


def test_misattribution_fails_without_suggestibility() -> None:
    outcome = misattribution(_profile(PARAMS, "balanced", suggestibility_factor=0.0))
    assert outcome.values["balanced"] == 0.0 and not outcome.inside


def test_misattribution_fails_when_a_faded_source_cannot_be_misattributed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The law behind the row broken: a teller misattributed only while the source confidence is in [0.3, 0.7), the
    rule before (issue 25). The teller being judged at each recall, nobody names the wrong teller after the fifth
    recall, when every profile's source is below 0.3."""
    real = distortion.misattribution_probability

    def known_only(rho: float, c_src: float, profile: Profile) -> float:
        return real(rho, c_src, profile) if c_src >= 0.3 else 0.0
    monkeypatch.setattr(reconsolidation, "misattribution_probability", known_only)
    outcome = misattribution(PARAMS)
    assert not outcome.inside and all(share == 0.0 for share in outcome.values.values())


def test_working_memory_fails_beyond_cowans_range() -> None:
    assert not working_memory_capacity(_profile(PARAMS, "paranoid", working_memory_capacity=6)).inside


# -- the command --------------------------------------------------------------------------------------------------

def test_the_command_prints_the_table_last(run: Any, findings: dict[str, Finding],
                                           shared_findings_command: Any) -> None:
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


def test_the_command_as_json(run: Any, findings: dict[str, Finding], shared_findings_command: Any) -> None:
    result = run("model", "findings", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["key"] for r in rows] == list(KEYS)
    assert all(r["inside"] for r in rows)
    assert rows[6]["values"]["balanced"] == findings["co_witness"].values["balanced"]
    assert {"phenomenon", "measure", "published", "target", "figure"} <= set(rows[0])


def test_the_command_uses_the_configured_parameters(run: Any, tmp_path: Path, shared_findings_command: Any) -> None:
    (tmp_path / "graphmem.toml").write_text('[parameters]\ncurve = "exponential"\n', encoding="utf-8")
    result = run("model", "findings")
    assert result.exit_code == 0, result.output
    # the exponential curve is the wrong shape; it also wears details away too fast (0.39 kept) and lets a witness's
    # source fade too slowly for the co-witness's account to slip in (0.47)
    for author in ("Wixted", "Neisser", "Gabbert"):
        assert "OUTSIDE" in next(line for line in result.output.splitlines() if author in line)
    assert "6 of 9 findings inside their target range" in result.output


def test_the_command_embeds_with_the_embedder_an_in_process_caller_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, findings: dict[str, Finding],
        shared_findings_command: Any) -> None:
    """A program running the command in its own process gives its embedder as click's root object
    (graphmem.cli.embedder_of): the co-witness accounts are embedded with it, and no model of the command's own."""
    monkeypatch.chdir(tmp_path)  # no ./graphmem.toml of the developer's
    given = Embedder()  # not loaded yet
    result = CliRunner().invoke(main, ["model", "findings", "--json"], obj=given,
                                env={"GRAPHMEM_CONFIG": None, "NEO4J_URI": None})
    assert result.exit_code == 0, result.output
    assert given.loaded
    co_witness = next(row for row in json.loads(result.output) if row["key"] == "co_witness")
    assert co_witness["values"] == findings["co_witness"].values


def test_docs_show_the_table_as_the_command_prints_it(findings: dict[str, Finding]) -> None:
    """docs/model.md's Fidelity section holds the very table the command prints with the shipped defaults."""
    doc = (Path(__file__).resolve().parents[3] / "docs" / "model.md").read_text(encoding="utf-8")
    lines = findings_table(list(findings.values()))
    assert "\n".join(lines[:-1]) in doc and lines[-1] in doc
