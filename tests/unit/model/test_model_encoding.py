"""Encoding strength, stability and memory type (docs/model.md#encoding-strength-and-stability)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import UsageProblem
from graphmem.model.encoding import MemoryType, classify_type, decay_rate, encoding_strength, stability, type_factor
from graphmem.model.params import Profile
from tests.unit.model.model_strategies import PARAMS, any_profile, unit

BALANCED = PARAMS.profile("balanced")
ANALYTICAL = PARAMS.profile("analytical")
types = st.sampled_from(list(MemoryType))


def test_worked_examples() -> None:
    assert encoding_strength(0.5, BALANCED) == pytest.approx(0.85)  # 0.7 + 0.3 * 0.5
    assert encoding_strength(0.1, ANALYTICAL, flashbulb=True) == 1.0
    # 10 * 0.5 * (0.15 / 0.2) * 1.0
    assert stability(0.5, BALANCED) == pytest.approx(3.75)
    # 10 * 0.8 * (0.15 / 0.15) * 2.0
    assert stability(0.8, ANALYTICAL, MemoryType.SEMANTIC) == pytest.approx(16.0)
    # flashbulb: decay rate 0.05 in place of BaseDecayRate
    assert stability(0.9, BALANCED, flashbulb=True) == pytest.approx(9 * 3.0)
    assert stability(0.0, BALANCED) == 1.0
    assert decay_rate(BALANCED, True) == 0.05 and decay_rate(BALANCED, False) == 0.2


def test_type_factors() -> None:
    assert [type_factor(t) for t in ("episodic", "semantic", "procedural", "emotional")] == [1.0, 2.0, 3.0, 1.5]
    with pytest.raises(UsageProblem, match="episodic"):
        type_factor("dreamy")


@given(unit, unit, any_profile, st.booleans())
def test_encoding_strength_is_bounded_and_monotone(s1: float, s2: float, profile: Profile, flashbulb: bool) -> None:
    lo, hi = sorted((s1, s2))
    e_lo, e_hi = encoding_strength(lo, profile, flashbulb), encoding_strength(hi, profile, flashbulb)
    assert profile.base_encoding_strength <= e_lo <= e_hi <= 1.0


@given(unit, any_profile, types, st.booleans())
def test_stability_is_at_least_one_phase(sal: float, profile: Profile, mt: MemoryType, fb: bool) -> None:
    assert stability(sal, profile, mt, fb) >= 1.0


@given(unit, unit, any_profile, types)
def test_stability_grows_with_salience(s1: float, s2: float, profile: Profile, mt: MemoryType) -> None:
    sl, sh = sorted((s1, s2))
    assert stability(sl, profile, mt) <= stability(sh, profile, mt)


@given(unit, any_profile, st.floats(0.05, 1.0), st.floats(0.05, 1.0), types)
def test_a_faster_decaying_profile_never_has_more_stability(sal: float, profile: Profile, r1: float,
                                                           r2: float, mt: MemoryType) -> None:
    slow, fast = sorted((r1, r2))
    s_slow = stability(sal, replace(profile, base_decay_rate=slow), mt)
    s_fast = stability(sal, replace(profile, base_decay_rate=fast), mt)
    assert s_fast <= s_slow
    if s_fast > 1.0 and fast > slow * 1.01:  # above the 1-phase minimum the order is strict
        assert s_fast < s_slow


@given(unit, any_profile)
def test_flashbulbs_are_more_stable_than_ordinary_memories(sal: float, profile: Profile) -> None:
    assert stability(sal, profile, flashbulb=True) >= stability(sal, profile)


def test_semantic_and_procedural_outlast_episodes() -> None:
    ep, sem, proc = (stability(0.5, BALANCED, t) for t in ("episodic", "semantic", "procedural"))
    assert ep < sem < proc


def test_classify_type_rules() -> None:
    assert classify_type("lesson", emotion_peak=0.9, flashbulb=False) == MemoryType.PROCEDURAL
    assert classify_type("reveal", emotion_peak=0.9, flashbulb=False) == MemoryType.SEMANTIC
    assert classify_type("summary", emotion_peak=0.0, flashbulb=False) == MemoryType.SEMANTIC
    assert classify_type("say", emotion_peak=0.2, flashbulb=False, factual=True) == MemoryType.SEMANTIC
    assert classify_type("say", emotion_peak=0.6, flashbulb=False) == MemoryType.EMOTIONAL
    assert classify_type("say", emotion_peak=0.59, flashbulb=False) == MemoryType.EPISODIC
    assert classify_type("murder", emotion_peak=0.9, flashbulb=True) == MemoryType.EPISODIC
    assert MemoryType("emotional") is MemoryType.EMOTIONAL and f"{MemoryType.SEMANTIC}" == "semantic"


def test_bad_inputs_are_rejected() -> None:
    with pytest.raises(UsageProblem):
        encoding_strength(1.1, BALANCED)
    with pytest.raises(UsageProblem):
        stability(1.5, BALANCED)
