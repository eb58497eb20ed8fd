"""What a recall does to forgetting (docs/model.md#forgetting): the laws of the testing and spacing effects as
properties, and what flashbulbs and the owner's own memories keep (docs/model.md#source-memory,
docs/model.md#flashbulb-memories)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.errors import UsageProblem
from graphmem.model.details import Detail
from graphmem.model.distortion import rehearse
from graphmem.model.encoding import stability
from graphmem.model.forgetting import retention, stability_after_recall, stability_gain, strength_at
from graphmem.model.params import Parameters, Profile
from graphmem.model.reconsolidation import MemoryState, SimilarMemory, recall_risks, reconsolidate, with_result
from graphmem.model.source import keeps_source, source_belief, source_confidence
from graphmem.model.vocabulary import MemoryType, SourceType
from tests.unit.model.model_strategies import PARAMS, any_profile, curves, unit

BALANCED = PARAMS.profile("balanced")
gains = st.floats(0.0, 3.0)
stabilities = st.floats(1.0, 200.0)
gaps = st.integers(0, 200)
later = st.integers(0, 2000)


def _params(curve: str) -> Parameters:
    return replace(PARAMS, curve=curve)


def test_worked_examples() -> None:
    # power: R = (1 + 3 dt / (S ln 2))^-1/2; S' = S R^-2 (1 + (1 - R))
    r = retention(4, 3.75, "power")
    assert stability_after_recall(3.75, 4, "power") == pytest.approx(3.75 / r**2 * (2 - r))
    assert stability_after_recall(3.75, 4, "power") == pytest.approx((3.75 + 12 / math.log(2)) * (2 - r))
    # exponential: g = 1, S' = S (1 + (1 - e^-dt/S))
    assert stability_after_recall(3.75, 4, "exponential") == pytest.approx(3.75 * (2 - math.exp(-4 / 3.75)))
    assert stability_gain(1.0, "power") == 1.0 == stability_gain(1.0, "exponential")
    assert stability_gain(0.5, "power", 0.0) == 4.0


def test_bad_inputs_are_rejected() -> None:
    with pytest.raises(UsageProblem, match="r_now"):
        stability_gain(0.0, "power")
    with pytest.raises(UsageProblem, match="r_now"):
        stability_gain(1.5, "exponential")
    with pytest.raises(UsageProblem, match="rehearsal_gain"):
        stability_gain(0.5, "power", -1.0)
    with pytest.raises(UsageProblem, match="exponential, power"):
        stability_gain(0.5, "linear")
    assert stability_gain(0.0, "exponential", 1.0) == 2.0  # an underflowed exponential retention


@given(unit, stabilities, gaps, later, curves, gains, st.booleans())
def test_law_a_a_recall_never_makes_a_memory_weaker_later(e_ref: float, s: float, gap: int, x: int, curve: str,
                                                          gain: float, flashbulb: bool) -> None:
    """(a) For every later phase, strength with the recall >= strength without it (Roediger & Karpicke 2006)."""
    floor = 0.8 if flashbulb else 0.0
    m = strength_at(e_ref, 0, s, gap, curve, floor)
    e_new, s_new = rehearse(m), stability_after_recall(s, gap, curve, gain)
    assert s_new >= s
    with_recall = strength_at(e_new, gap, s_new, gap + x, curve, floor)
    without = strength_at(e_ref, 0, s, gap + x, curve, floor)
    assert with_recall >= without * (1 - 1e-12)


@settings(max_examples=200)
@given(unit, stabilities, st.integers(0, 40), st.lists(st.integers(0, 30), min_size=1, max_size=6), later, curves,
       any_profile, st.booleans(), st.integers(0, 2**32))
def test_law_a_through_reconsolidation(e_ref: float, s: float, t_enc: int, gaps_: list[int], x: int, curve: str,
                                       profile: Profile, flashbulb: bool, seed: int) -> None:
    """(a) end to end: after any series of recalls, each recall leaves the memory at least as strong at every
    later phase as it would have been without that recall."""
    p = _params(curve)
    state = MemoryState(uid="g/memory/Anna/1", e_ref=e_ref if not flashbulb else 1.0, t_ref=t_enc, s=s, n=0,
                        salience=0.5, t_enc=t_enc, s_enc=s, flashbulb=flashbulb)
    floor = 0.8 if flashbulb else 0.0
    now = t_enc
    for gap in gaps_:
        now += gap
        after = with_result(state, reconsolidate(state, now, 0.3, (), profile, p, seed))
        t = now + x
        assert strength_at(after.e_ref, after.t_ref, after.s, t, curve, floor) >= \
            strength_at(state.e_ref, state.t_ref, state.s, t, curve, floor) * (1 - 1e-12)
        state = after


@given(unit, unit, curves, gains)
def test_law_b_the_gain_is_larger_the_more_the_memory_had_faded(r1: float, r2: float, curve: str,
                                                                gain: float) -> None:
    """(b) The stability gain is larger the lower R_now was (Cepeda et al. 2006, the spacing effect)."""
    low, high = sorted((max(r1, 1e-6), max(r2, 1e-6)))
    assert stability_gain(low, curve, gain) >= stability_gain(high, curve, gain)
    if low < high * (1 - 1e-9) and (curve == "power" or gain > 1e-6):
        assert stability_gain(low, curve, gain) > stability_gain(high, curve, gain)


@given(stabilities, gaps, gaps, curves)
def test_law_b_a_recall_after_a_longer_gap_gains_more(s: float, g1: int, g2: int, curve: str) -> None:
    short, long = sorted((g1, g2))
    assert stability_after_recall(s, long, curve) >= stability_after_recall(s, short, curve)


@given(unit, stabilities, gaps, curves, any_profile, st.integers(0, 2**32))
def test_law_c_two_recalls_in_one_phase_gain_little_more_than_one(e_ref: float, s: float, gap: int, curve: str,
                                                                   profile: Profile, seed: int) -> None:
    """(c) A second recall in the same phase adds no stability and only the rehearsal step of strength."""
    p = _params(curve)
    state = MemoryState(uid="g/memory/Anna/2", e_ref=e_ref, t_ref=0, s=s, n=0, salience=0.5, t_enc=0, s_enc=s)
    once = reconsolidate(state, gap, 0.0, (), profile, p, seed)
    twice = reconsolidate(with_result(state, once), gap, 0.0, (), profile, p, seed)
    assert twice.s == pytest.approx(once.s, rel=1e-12)
    assert twice.e_ref - once.e_ref <= p.reconsolidation.rehearsal * (1 - once.e_ref) + 1e-12
    assert once.s / state.s >= 1.0


# -- flashbulbs (docs/model.md#flashbulb-memories) and the owner's own memories (docs/model.md#source-memory)
# ---------------------------------------------------

DETAILS = (Detail("who", "Eleanor"), Detail("where", "library"), Detail("when", "2"), Detail("what", "she saw it"))


@given(unit, st.integers(0, 100), st.integers(0, 30), unit, any_profile)
def test_a_flashbulb_drifts_like_an_ordinary_memory_of_the_same_salience(sal: float, dt: int, n: int, emotion: float,
                                                                         profile: Profile) -> None:
    """Talarico & Rubin 2003: the distortion risk of a flashbulb is that of an ordinary memory of its salience."""
    ordinary_s = stability(sal, profile, MemoryType.EPISODIC, False, PARAMS)
    flash_s = stability(sal, profile, MemoryType.EPISODIC, True, PARAMS)
    flash = MemoryState(uid="f", e_ref=1.0, t_ref=0, s=flash_s, n=n, salience=sal, t_enc=0, s_enc=flash_s,
                        flashbulb=True, details=DETAILS)
    ordinary = replace(flash, uid="o", e_ref=0.8, s=ordinary_s, s_enc=ordinary_s, flashbulb=False)
    assert recall_risks(flash, dt, emotion, profile)[0] == pytest.approx(recall_risks(ordinary, dt, emotion,
                                                                                      profile)[0], abs=1e-15)
    # ... while its source confidence follows its own, larger stability
    assert recall_risks(flash, dt, emotion, profile)[1] >= recall_risks(ordinary, dt, emotion, profile)[1]


@given(st.sampled_from([t for t in SourceType if t is not SourceType.UNKNOWN]), unit, st.booleans(), st.booleans(),
       st.booleans())
def test_own_memories_flashbulbs_and_misattributed_tellers_keep_their_source(source: SourceType, c: float, own: bool,
                                                                             flashbulb: bool,
                                                                             misattributed: bool) -> None:
    belief = source_belief(source, c, keep=keeps_source(own, flashbulb, misattributed))
    assert belief == (source.value if own or flashbulb or misattributed or c >= 0.3 else "unknown")


def test_a_flashbulb_told_by_someone_stays_known_and_can_still_be_misattributed() -> None:
    s = stability(0.9, BALANCED, flashbulb=True)
    told = MemoryState(uid="g/memory/Anna/7", e_ref=1.0, t_ref=0, s=s, n=0, salience=0.9, t_enc=0, s_enc=s,
                       flashbulb=True, c0=0.9, source_k=5 / 3, source_type=SourceType.DIRECT_TOLD, teller="Eleanor",
                       believed_teller="Eleanor", details=DETAILS)
    late = 400
    assert source_confidence(0.9, late, 0, s, 5 / 3) < 0.3  # an ordinary memory would have lost its source
    donor = SimilarMemory("g/memory/Anna/9", 0.8, (Detail("who", "Ben"),), teller="Ben")
    suggestible = replace(BALANCED, suggestibility_factor=1.0)
    results = [reconsolidate(told, late, 0.0, (donor,), suggestible, PARAMS, seed) for seed in range(50)]
    assert any(r.misattributed for r in results)
    assert all(r.strength >= 0.8 for r in results)


def test_own_statements_are_never_misattributed() -> None:
    own = MemoryState(uid="g/memory/Anna/8", e_ref=0.9, t_ref=0, s=3.0, n=0, salience=0.5, t_enc=0, s_enc=3.0,
                      own=True, details=DETAILS)
    donor = SimilarMemory("g/memory/Anna/9", 0.8, (Detail("who", "Ben"),), teller="Ben")
    suggestible = replace(BALANCED, suggestibility_factor=1.0)
    assert not any(reconsolidate(own, 30, 0.0, (donor,), suggestible, PARAMS, seed).misattributed
                   for seed in range(50))
