"""Reconsolidation at recall: rehearsal, distortion risk, detail loss and import, misattribution
(docs/model.md#recall-and-reconsolidation)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.model.details import Detail, details_to_json, render
from graphmem.model.distortion import (
    confabulation_probability,
    distortion_risk,
    loss_probability,
    misattribution_probability,
    misinformation_probability,
    rehearse,
)
from graphmem.model.params import Profile
from graphmem.model.reconsolidation import MemoryState, SimilarMemory, reconsolidate, with_result
from graphmem.model.source import keeps_source, source_belief, source_confidence
from graphmem.model.vocabulary import MemoryType, SourceType
from tests.unit.model.model_strategies import PARAMS, any_profile, unit

BALANCED = PARAMS.profile("balanced")
DETAILS = (Detail("who", "Eleanor"), Detail("whom", "you"), Detail("where", "library"), Detail("when", "2"),
           Detail("quote", "Marcus has medical training"), Detail("what", "Marcus has medical training"))
TOLD = MemoryState(uid="g/memory/Anna/5", e_ref=0.9, t_ref=0, s=3.0, n=20, salience=0.5, t_enc=0, s_enc=3.0,
                   c0=0.9, source_k=1.5, source_type=SourceType.DIRECT_TOLD, teller="Eleanor",
                   believed_teller="Eleanor", details=DETAILS)
DONOR = SimilarMemory("g/memory/Anna/9", 0.8, (Detail("who", "Ben"), Detail("where", "kitchen"), Detail("when", "4")),
                      teller="Ben")
CONFABULATOR = replace(BALANCED, confabulation_risk=1.0)


def test_rehearsal_worked_example() -> None:
    assert rehearse(0.6) == pytest.approx(0.62)
    assert rehearse(1.0) == 1.0


@given(unit)
def test_rehearsal_moves_strength_toward_one(m: float) -> None:
    m2 = rehearse(m)
    assert m <= m2 <= 1.0
    assert 1.0 - m2 == pytest.approx(0.95 * (1.0 - m), abs=1e-12)


@given(unit, st.integers(0, 50), st.integers(0, 30), any_profile, st.integers(0, 2**32))
def test_recall_rehearses_and_adds_one_access(e_ref: float, n: int, dt: int, profile: Profile, seed: int) -> None:
    state = replace(TOLD, e_ref=e_ref, n=n, t_ref=2, t_enc=2)
    out = reconsolidate(state, 2 + dt, 0.2, (), profile, PARAMS, seed)
    assert out.strength == pytest.approx(rehearse(out.strength_before)) and out.strength >= out.strength_before
    assert (out.n, out.t_ref, out.e_ref) == (n + 1, 2 + dt, out.strength)
    assert out.s >= state.s


def test_distortion_risk_worked_example_and_clip() -> None:
    assert distortion_risk(1.0, 0.0, 0.0, BALANCED) == pytest.approx(0.4)  # (0.5 + 0.3) * 0.5
    assert distortion_risk(1.0, 1.0, 1.0, replace(BALANCED, confabulation_risk=1.0)) == 1.0


@given(unit, unit, unit, any_profile, unit)
def test_distortion_risk_is_bounded_and_monotone(a: float, b: float, c: float, profile: Profile, bump: float) -> None:
    rho = distortion_risk(a, b, c, profile)
    assert 0.0 <= rho <= 1.0
    assert distortion_risk(max(a, bump), b, c, profile) >= rho
    assert distortion_risk(a, max(b, bump), c, profile) >= rho
    assert distortion_risk(a, b, max(c, bump), profile) >= rho
    assert distortion_risk(a, b, c, replace(profile, confabulation_risk=max(profile.confabulation_risk, bump))) >= rho


@given(st.floats(0.0, 0.3), st.sampled_from(["who", "whom", "where", "when", "quote", "what"]), any_profile)
def test_no_loss_chance_at_or_below_0_3(rho: float, kind: str, profile: Profile) -> None:
    assert loss_probability(rho, kind, profile) == 0.0


def test_loss_probability_uses_temporal_bias_for_when() -> None:
    p = replace(BALANCED, detail_memory_bias=0.5, temporal_memory_bias=0.0)
    # (rho - 0.3) / 0.7 * (1 - 1.0 * bias), detail_bias_weight 1.0
    assert loss_probability(1.0, "who", p) == pytest.approx(0.5)
    assert loss_probability(1.0, "when", p) == pytest.approx(1.0)
    assert loss_probability(1.0, "what", p) == 0.0
    assert loss_probability(1.0, "who", replace(p, detail_memory_bias=1.0)) == 0.0


def test_misattribution_and_misinformation_worked_examples() -> None:
    # SuggestibilityFactor * max(rho, 1 - c_src);
    # (0.5 + ConfabulationRisk) * max(rho, 1 - c_src) * min(1, (cos - 0.5) / (0.75 - 0.5))
    assert misattribution_probability(0.2, 0.5, BALANCED) == pytest.approx(0.35 * 0.5)
    assert misattribution_probability(0.8, 0.5, BALANCED) == pytest.approx(0.35 * 0.8)
    assert misattribution_probability(0.2, 0.1, BALANCED) == pytest.approx(0.35 * 0.9)  # below 0.3 too
    assert misinformation_probability(0.2, 0.4, 1.0, BALANCED) == pytest.approx(0.8 * 0.6)
    assert misinformation_probability(0.2, 0.4, 0.8, BALANCED) == pytest.approx(0.8 * 0.6)  # a retelling: full chance
    assert misinformation_probability(0.2, 0.4, 0.6, BALANCED) == pytest.approx(0.8 * 0.6 * 0.4)
    assert misinformation_probability(0.9, 0.4, 1.0, replace(BALANCED, confabulation_risk=1.0)) == 1.0
    assert misinformation_probability(0.9, 0.0, 0.5, BALANCED) == 0.0  # a just-similar-enough memory lends nothing
    assert confabulation_probability(0.6, 0.7, BALANCED) == 0.3
    assert confabulation_probability(0.5, 0.7, BALANCED) == 0.0 == confabulation_probability(0.6, 0.6, BALANCED)


@given(unit, unit, unit, st.floats(0.5, 1.0), st.floats(0.5, 1.0), any_profile)
def test_source_confusions_grow_as_the_source_fades_and_with_similarity(rho: float, c1: float, c2: float, s1: float,
                                                                        s2: float, profile: Profile) -> None:
    faint, sure = sorted((c1, c2))
    loose, close = sorted((s1, s2))
    assert misattribution_probability(rho, faint, profile) >= misattribution_probability(rho, sure, profile)
    assert misinformation_probability(rho, faint, close, profile) >= misinformation_probability(rho, sure, close,
                                                                                               profile)
    assert misinformation_probability(rho, faint, close, profile) >= misinformation_probability(rho, faint, loose,
                                                                                               profile)
    assert 0.0 <= misinformation_probability(rho, faint, close, profile) <= 1.0


@given(st.integers(0, 3), unit, st.floats(0.0, 0.3), any_profile, st.integers(0, 2**32), st.floats(1.0, 50.0))
def test_no_detail_is_lost_when_risk_is_low(n: int, e_ref: float, emotion: float, profile: Profile, seed: int,
                                           s: float) -> None:
    state = replace(TOLD, n=n, e_ref=e_ref, s=s, s_enc=s, t_enc=7, t_ref=7)
    out = reconsolidate(state, 7, emotion, (), profile, PARAMS, seed)
    assert out.rho <= 0.3
    assert out.details == state.details and out.changes == ()
    # a detail heard elsewhere may still slip in (misinformation has no risk gate), but nothing is lost
    with_donor = reconsolidate(state, 7, emotion, (DONOR,), profile, PARAMS, seed)
    assert not any(d.lost for d in with_donor.details) and {c.kind for c in with_donor.changes} <= {"imported"}


@settings(max_examples=50)
@given(st.integers(0, 2**32), st.integers(0, 40), unit, any_profile)
def test_same_seed_same_distortions(seed: int, now: int, emotion: float, profile: Profile) -> None:
    first = reconsolidate(TOLD, now, emotion, (DONOR,), profile, PARAMS, seed)
    assert reconsolidate(TOLD, now, emotion, (DONOR,), profile, PARAMS, seed) == first


def test_different_seeds_differ_somewhere() -> None:
    outcomes = {details_to_json(reconsolidate(TOLD, 20, 0.9, (DONOR,), BALANCED, PARAMS, seed).details)
                for seed in range(30)}
    assert len(outcomes) > 1


def test_randomness_is_stable_across_processes() -> None:
    code = ("from graphmem.model.reconsolidation import *; import tests.unit.model.test_model_reconsolidation as t;"
            "from graphmem.model.details import details_to_json;"
            "print(details_to_json(reconsolidate(t.TOLD, 20, 0.9, (t.DONOR,), t.BALANCED, t.PARAMS, 7).details))")
    here = details_to_json(reconsolidate(TOLD, 20, 0.9, (DONOR,), BALANCED, PARAMS, 7).details)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed,
               "PYTHONPATH": os.pathsep.join([root, os.path.dirname(os.path.abspath(__file__))])}
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True,
                             check=True)
        assert out.stdout.strip() == here


def test_details_are_lost_at_high_risk_and_rendered_vaguely() -> None:
    lost_any = False
    for seed in range(30):
        out = reconsolidate(TOLD, 20, 0.9, (), BALANCED, PARAMS, seed)
        assert out.rho > 0.5
        lost = [c for c in out.changes if c.kind == "lost"]
        assert len(lost) == out.n_lost
        assert all(d.kind != "what" for d in out.details if d.lost)  # the gist stays
        if any(d.kind == "who" and d.lost for d in out.details):
            lost_any = True
            assert render("{who} said {content}", out.details).startswith("someone said")
    assert lost_any


def test_imported_details_carry_origin_and_fabricated_flag() -> None:
    identical = replace(DONOR, similarity=1.0)  # an account of the same event: the full chance, 1 for a confabulator
    for seed in range(20):
        out = reconsolidate(TOLD, 20, 0.9, (identical,), CONFABULATOR, PARAMS, seed)
        imported = [d for d in out.details if d.fabricated]
        assert len(imported) == 1 and out.fabricated
        d = imported[0]
        assert d.origin == DONOR.uid and not d.lost
        assert (d.kind, d.value) in {("who", "Ben"), ("where", "kitchen"), ("when", "4")}
        assert d.original == {"who": "Eleanor", "where": "library", "when": "2"}[d.kind]
        assert [c.kind for c in out.changes].count("imported") == 1


def test_no_import_without_a_similar_memory_or_a_new_value() -> None:
    for seed in range(20):
        weak = replace(DONOR, similarity=0.49)
        assert not reconsolidate(TOLD, 20, 0.9, (weak,), CONFABULATOR, PARAMS, seed).fabricated
        same = replace(DONOR, details=(Detail("who", "Eleanor"), Detail("where", "library")))
        assert not reconsolidate(TOLD, 20, 0.9, (same,), CONFABULATOR, PARAMS, seed).fabricated


def test_a_calm_owner_picks_up_details_from_another_source() -> None:
    """Misinformation from someone else has no emotion gate (Gabbert et al. 2003): a calm owner imports too, the
    more often the closer the other account."""
    def imported(donor: SimilarMemory) -> int:
        calm = [reconsolidate(TOLD, 20, 0.0, (donor,), BALANCED, PARAMS, seed) for seed in range(200)]
        assert all(d.origin == donor.uid for r in calm for d in r.details if d.fabricated)
        return sum(r.fabricated for r in calm)
    loose, close, retold = (imported(replace(DONOR, similarity=s)) for s in (0.55, 0.65, 0.75))
    assert 0 < loose < close < retold < 200
    assert imported(replace(DONOR, similarity=1.0)) == retold  # from similarity.same_account on: the full chance


def test_spontaneous_confabulation_from_own_memories_keeps_the_strict_gate() -> None:
    """A similar memory of the owner's own (no teller) lends a detail only when rho > 0.5 and emotion now > 0.6."""
    own = replace(DONOR, teller=None)
    for seed in range(50):
        assert not reconsolidate(TOLD, 20, 0.6, (own,), CONFABULATOR, PARAMS, seed).fabricated
        low = reconsolidate(replace(TOLD, n=0), 0, 0.9, (own,), CONFABULATOR, PARAMS, seed)
        assert low.rho <= 0.5 and not low.fabricated
    aroused = [reconsolidate(TOLD, 20, 0.9, (own,), CONFABULATOR, PARAMS, seed) for seed in range(20)]
    assert all(r.rho > 0.5 for r in aroused) and all(r.fabricated for r in aroused)


def test_a_memory_is_fabricated_only_while_it_holds_the_imported_detail() -> None:
    imported = next(r for r in (reconsolidate(TOLD, 20, 0.0, (DONOR,), BALANCED, PARAMS, seed) for seed in range(50))
                    if r.fabricated)
    state = with_result(TOLD, imported)
    forgetful = replace(BALANCED, detail_memory_bias=0.0, temporal_memory_bias=0.0)
    later = None
    for t in range(21, 200):
        out = reconsolidate(state, t, 1.0, (), forgetful, PARAMS, 3)
        state = with_result(state, out)
        if not any(d.fabricated and not d.lost for d in out.details):
            later = out
            break
    assert later is not None, "the imported detail was never lost"
    assert not later.fabricated  # the flag follows the held detail
    assert any(d.fabricated and d.lost for d in later.details)  # the graph still records where it came from


SHAKY = replace(TOLD, s_enc=10.0, s=10.0)  # at phase 5: c_src = 0.9 * (1 + 15 / (10 ln 2))^-0.75 = 0.47: known, < 0.7
SUGGESTIBLE = replace(BALANCED, suggestibility_factor=1.0)


def test_misattribution_switches_to_the_other_teller() -> None:
    assert 0.3 <= source_confidence(0.9, 5, 0, 10.0, 1.5) < 0.7
    results = [reconsolidate(SHAKY, 5, 0.9, (DONOR,), SUGGESTIBLE, PARAMS, seed) for seed in range(200)]
    switched = [r for r in results if r.misattributed]
    assert 0 < len(switched) < 200
    assert all(r.believed_teller == "Ben" for r in switched)
    assert all(r.believed_teller == "Eleanor" for r in results if not r.misattributed)


def test_no_misattribution_when_sure_or_first_hand_or_own() -> None:
    sure = replace(SHAKY, s_enc=1000.0)      # c_src ~ 0.9
    seen = replace(SHAKY, source_type=SourceType.FIRST_HAND, teller=None, believed_teller=None, c0=1.0)
    own = replace(seen, own=True)
    for seed in range(100):
        for state in (sure, seen, own):
            assert not reconsolidate(state, 5, 0.9, (DONOR,), SUGGESTIBLE, PARAMS, seed).misattributed


def test_a_half_forgotten_source_is_named_wrongly_rather_than_not_at_all() -> None:
    """Below the "unknown" threshold the owner can still name the wrong teller (Johnson et al. 1993): the belief then
    names that teller; otherwise it is the true one, shown as unknown."""
    forgotten = replace(SHAKY, s_enc=0.5)    # c_src < 0.3: the memory's own trace no longer names the teller
    results = [reconsolidate(forgotten, 5, 0.9, (DONOR,), SUGGESTIBLE, PARAMS, seed) for seed in range(200)]
    assert all(r.source_confidence < 0.3 for r in results)
    switched = [r for r in results if r.misattributed]
    assert 100 < len(switched) < 200  # SuggestibilityFactor 1 * max(rho, 1 - c_src) > 0.7
    assert all(r.believed_teller == "Ben" for r in switched)
    assert all(r.believed_teller == "Eleanor" for r in results if not r.misattributed)
    for r in results:
        belief = source_belief(forgotten.source_type, r.source_confidence, PARAMS,
                               keep=keeps_source(forgotten.own, forgotten.flashbulb, r.misattributed))
        assert belief == ("direct_told" if r.misattributed else "unknown")


def test_the_teller_is_judged_again_at_each_recall() -> None:
    """A misattributed memory recalled without the memory that lent the wrong teller gets its own trace's answer back
    (the true teller, a "reattributed" change); recalled with it, it is judged again (source monitoring happens at
    retrieval, Johnson et al. 1993)."""
    wrong = replace(SHAKY, believed_teller="Ben")
    for seed in range(20):
        out = reconsolidate(wrong, 5, 0.2, (), SUGGESTIBLE, PARAMS, seed)
        assert out.believed_teller == "Eleanor" and not out.misattributed
        assert [(c.kind, c.before, c.after) for c in out.changes if c.detail is None] == [
            ("reattributed", "Ben", "Eleanor")]
    again = [reconsolidate(wrong, 5, 0.9, (DONOR,), SUGGESTIBLE, PARAMS, seed) for seed in range(100)]
    assert any(r.misattributed for r in again) and not all(r.misattributed for r in again)
    assert not any(c.kind == "misattributed" for r in again for c in r.changes)  # Ben again is no new change


def test_the_source_clock_is_not_reset_by_recall() -> None:
    state = SHAKY
    for now in (2, 4, 6, 8):
        out = reconsolidate(state, now, 0.1, (), BALANCED, PARAMS, 1)
        assert out.source_confidence == pytest.approx(source_confidence(0.9, now, 0, 10.0, 1.5))
        state = with_result(state, out)
    assert state.n == SHAKY.n + 4 and state.t_ref == 8


def test_flashbulbs_keep_their_strength_while_details_drift() -> None:
    fb = MemoryState(uid="g/memory/Anna/3", e_ref=1.0, t_ref=0, s=27.0, n=0, salience=0.9, t_enc=0, s_enc=27.0,
                     memory_type=MemoryType.EPISODIC, flashbulb=True, details=DETAILS)
    emotional = PARAMS.profile("emotional")
    drifted = 0
    for seed in range(10):
        state = fb
        for now in range(20, 220, 20):
            out = reconsolidate(state, now, 0.9, (DONOR,), emotional, PARAMS, seed)
            assert out.strength >= 0.8  # confidence stays high (Talarico & Rubin 2003)
            state = with_result(state, out)
        drifted += state.details != DETAILS
    assert drifted > 0  # ... while accuracy drifts


@settings(max_examples=300)
@given(st.integers(0, 2**32), st.integers(0, 40), st.integers(0, 40), unit, any_profile, st.booleans())
def test_similar_memories_are_looked_up_only_when_a_distortion_is_drawn(seed: int, now: int, n: int, emotion: float,
                                                                        profile: Profile, told: bool) -> None:
    """A function in place of the similar memories gives the same result, and when the model does not call it
    (no import and no misattribution drawn) the result is the same whatever the similar memories are."""
    state = replace(TOLD, n=n) if told else replace(TOLD, n=n, source_type=SourceType.FIRST_HAND, teller=None,
                                                    believed_teller=None)
    calls: list[int] = []

    def lookup() -> tuple[SimilarMemory, ...]:
        calls.append(1)
        return (DONOR,)

    eager = reconsolidate(state, now, emotion, (DONOR,), profile, PARAMS, seed)
    assert reconsolidate(state, now, emotion, lookup, profile, PARAMS, seed) == eager
    assert len(calls) <= 1
    if not calls:
        assert reconsolidate(state, now, emotion, (), profile, PARAMS, seed) == eager
    if any(c.kind in ("imported", "misattributed") for c in eager.changes):
        assert calls == [1]


def test_a_misattribution_without_a_donor_changes_nothing() -> None:
    """The misattribution draw comes before the donor search; with no donor nothing changes, as before."""
    suggestible = replace(BALANCED, suggestibility_factor=1.0)
    for seed in range(20):
        out = reconsolidate(TOLD, 20, 0.2, (), suggestible, PARAMS, seed)
        assert out.believed_teller == "Eleanor" and not out.misattributed
