"""Forgetting curves and closed-form strength (docs/model.md#forgetting)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import UsageProblem
from graphmem.model.encoding import encoding_strength, stability
from graphmem.model.forgetting import half_life, retention, strength_at
from graphmem.model.params import Profile
from tests.unit.model.model_strategies import PARAMS, any_profile, curves, stabilities, unit

elapsed = st.floats(0.0, 1000.0)


def test_worked_examples() -> None:
    assert retention(4, 4.0, "exponential") == pytest.approx(math.exp(-1))
    assert retention(0, 3.0, "power") == 1.0
    assert retention(4, 4.0) == retention(4, 4.0, "power")  # the default curve (docs/model.md#forgetting)
    assert half_life(10.0) == pytest.approx(6.931471805599453)
    # balanced, salience 0.5: E0 = 0.85, S = 3.75; after 3 phases
    assert strength_at(0.85, 0, 3.75, 3, "exponential") == pytest.approx(0.85 * math.exp(-0.8))
    assert strength_at(0.85, 0, 3.75, 3) == pytest.approx(0.85 * (1 + 9 / (3.75 * math.log(2))) ** -0.5)


@given(stabilities, curves)
def test_retention_is_one_at_zero_and_one_half_at_the_half_life(s: float, curve: str) -> None:
    assert retention(0, s, curve) == 1.0
    assert retention(s * math.log(2), s, curve) == pytest.approx(0.5, rel=1e-12)
    assert retention(half_life(s), s, curve) == pytest.approx(0.5, rel=1e-12)


@given(elapsed, elapsed, stabilities, curves)
def test_retention_falls_with_elapsed_phases(d1: float, d2: float, s: float, curve: str) -> None:
    lo, hi = sorted((d1, d2))
    assert 0.0 <= retention(hi, s, curve) <= retention(lo, s, curve) <= 1.0
    if hi - lo >= 1.0 and retention(hi, s, curve) > 1e-300:
        assert retention(hi, s, curve) < retention(lo, s, curve)


@given(elapsed, stabilities, stabilities, curves)
def test_retention_rises_with_stability(dt: float, s1: float, s2: float, curve: str) -> None:
    lo, hi = sorted((s1, s2))
    assert retention(dt, lo, curve) <= retention(dt, hi, curve)


@given(st.floats(0.01, 0.99), stabilities)
def test_power_curve_forgets_faster_early_and_has_the_heavier_tail(frac: float, s: float) -> None:
    h = half_life(s)
    early, late = frac * h, h / frac
    assert retention(early, s, "power") < retention(early, s, "exponential")
    assert retention(late, s, "power") > retention(late, s, "exponential")


@given(unit, any_profile, st.floats(0.05, 1.0), st.floats(0.05, 1.0), st.integers(0, 60), curves)
def test_a_larger_decay_rate_never_retains_more(sal: float, profile: Profile, r1: float, r2: float, t: int,
                                               curve: str) -> None:
    # the seed multiplied retention by (1 + rate * 0.2): faster decay remembered more
    # (docs/model.md#defects-of-the-seed-formulas)
    slow, fast = (replace(profile, base_decay_rate=r) for r in sorted((r1, r2)))
    m_slow = strength_at(encoding_strength(sal, slow), 0, stability(sal, slow), t, curve)
    m_fast = strength_at(encoding_strength(sal, fast), 0, stability(sal, fast), t, curve)
    assert m_fast <= m_slow
    assert m_slow <= 1.0


@given(unit, stabilities, st.lists(st.integers(0, 30), min_size=1, max_size=12), curves, st.integers(0, 5))
def test_strength_is_closed_form_whatever_the_path(e_ref: float, s: float, steps: list[int], curve: str,
                                                  t_ref: int) -> None:
    # a decay job that runs at every intermediate phase and stores m each time ends where one direct call does
    t, stored = t_ref, e_ref
    for step in steps:
        t += step
        stored = strength_at(e_ref, t_ref, s, t, curve)
        assert strength_at(e_ref, t_ref, s, t, curve) == stored  # idempotent: the same phase twice
    assert stored == strength_at(e_ref, t_ref, s, t, curve)
    if curve == "exponential":  # the exponential is memoryless: chaining per-step retentions agrees too
        chained = e_ref * math.prod(retention(step, s, curve) for step in steps)
        assert chained == pytest.approx(stored, rel=1e-9, abs=1e-300)


@given(st.floats(0.1, 1.0), st.floats(1.0, 50.0), st.lists(st.integers(1, 10), min_size=2, max_size=8))
def test_running_product_of_the_power_curve_would_compound(e_ref: float, s: float, steps: list[int]) -> None:
    # why decay must be closed form: multiplying per-phase power retentions forgets too fast
    # (docs/model.md#defects-of-the-seed-formulas)
    running = e_ref * math.prod(retention(step, s, "power") for step in steps)
    assert running < strength_at(e_ref, 0, s, sum(steps), "power")


@given(unit, stabilities, elapsed, curves)
def test_a_floor_holds_at_every_phase(e_ref: float, s: float, t: float, curve: str) -> None:
    assert strength_at(e_ref, 0, s, t, curve, floor=0.8) >= 0.8
    assert strength_at(e_ref, 0, s, t, curve) <= e_ref


def test_bad_inputs_are_rejected() -> None:
    with pytest.raises(UsageProblem, match="dt must be >= 0"):
        strength_at(0.9, 5, 3.0, 4)
    with pytest.raises(UsageProblem, match="exponential, power"):
        retention(1, 3.0, "linear")
    with pytest.raises(UsageProblem, match="s must be"):
        retention(1, 0.0)
    assert PARAMS.curve == "power"  # the shipped default since docs/model.md#forgetting made it so
