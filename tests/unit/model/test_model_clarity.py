"""Clarity markers and lifecycle bands (docs/model.md#cued-recall-which-memories-come-back,
docs/model.md#lifecycle-states)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.model.clarity import LifecycleState, Marker, clarity_marker, lifecycle_state
from graphmem.model.params import Profile
from tests.unit.model.model_strategies import PARAMS, any_profile, unit

ORDER = [None, Marker.VAGUE, Marker.FUZZY, Marker.CLEAR]


@pytest.mark.parametrize(("strength", "threshold", "marker"), [
    (0.70, 0.18, "CLEAR"), (0.6999, 0.18, "FUZZY"), (0.40, 0.18, "FUZZY"), (0.3999, 0.18, "VAGUE"),
    # analytical: VAGUE starts at its threshold (docs/model.md#defects-of-the-seed-formulas)
    (0.20, 0.20, "VAGUE"), (0.1999, 0.20, None),
    (0.15, 0.15, "VAGUE"), (0.1499, 0.15, None),    # intuitive
    (0.15, 0.05, "VAGUE"), (0.12, 0.05, None),      # VAGUE never below 0.15
])
def test_marker_bands(strength: float, threshold: float, marker: str | None) -> None:
    assert clarity_marker(strength, False, threshold) == marker


@given(unit, any_profile)
def test_flashbulbs_are_always_marked_flashbulb(strength: float, profile: Profile) -> None:
    assert clarity_marker(strength, True, profile.retrieval_threshold) == Marker.FLASHBULB == "FLASHBULB"


@given(unit, unit, any_profile)
def test_markers_never_get_worse_with_strength(m1: float, m2: float, profile: Profile) -> None:
    lo, hi = sorted((m1, m2))
    t = profile.retrieval_threshold
    assert ORDER.index(clarity_marker(lo, False, t)) <= ORDER.index(clarity_marker(hi, False, t))


@given(st.floats(0.0, 0.399), any_profile)
def test_retrieval_threshold_is_below_the_fuzzy_band(m: float, profile: Profile) -> None:
    assert profile.retrieval_threshold < PARAMS.clarity.fuzzy
    assert clarity_marker(m, False, profile.retrieval_threshold) in (None, Marker.VAGUE)


def test_lifecycle_bands() -> None:
    assert lifecycle_state(0.40, 0.18) is LifecycleState.ACTIVE and str(LifecycleState.ACTIVE) == "active"
    assert lifecycle_state(0.3999, 0.18) == "warm"
    assert lifecycle_state(0.18, 0.18) == "warm"
    assert lifecycle_state(0.1799, 0.18) == "archived"
    assert str(LifecycleState.ARCHIVED) == "archived" and f"{Marker.CLEAR}" == "CLEAR"


@given(unit, any_profile)
def test_lifecycle_agrees_with_recall_filter(m: float, profile: Profile) -> None:
    state = lifecycle_state(m, profile.retrieval_threshold)
    assert (state == LifecycleState.ARCHIVED) == (m < profile.retrieval_threshold)
    assert (state == LifecycleState.ACTIVE) == (m >= 0.40)
