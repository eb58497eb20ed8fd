"""Cued recall (docs/model.md#cued-recall-which-memories-come-back): retrieval depends on strength and on how well
the cue matches; markers do not."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import UsageProblem
from graphmem.model.clarity import clarity_marker
from graphmem.model.params import Profile
from graphmem.model.retrieval import can_retrieve, cue_floor, recall_marker, retrieval_floor
from graphmem.model.vocabulary import Marker
from tests.unit.model.model_strategies import PARAMS, any_profile, unit

ORDER = [None, Marker.VAGUE, Marker.FUZZY, Marker.CLEAR]


def test_the_rule_with_the_shipped_parameters() -> None:
    # balanced: threshold 0.18, CueSupport 0.5
    assert retrieval_floor(0.18, 0.0) == pytest.approx(0.18)
    assert retrieval_floor(0.18, 1.0) == pytest.approx(0.09)
    assert retrieval_floor(0.18, 0.5) == pytest.approx(0.135)
    assert retrieval_floor(0.05, 0.0) == pytest.approx(0.15)  # never below the VAGUE floor without a cue
    assert cue_floor(0.20) == pytest.approx(0.10)
    # a memory faded to 0.12: an unrelated topic cannot bring it back, a matching one can, as VAGUE
    assert recall_marker(0.12, False, 0.18, 0.0) is None
    assert recall_marker(0.12, False, 0.18, 0.9) is Marker.VAGUE
    assert recall_marker(0.08, False, 0.18, 1.0) is None  # below 0.09: forgotten whatever the cue


@given(unit, unit, unit, any_profile)
def test_retrieval_is_monotone_in_strength(m1: float, m2: float, relevance: float, profile: Profile) -> None:
    lo, hi = sorted((m1, m2))
    t = profile.retrieval_threshold
    if can_retrieve(lo, False, t, relevance):
        assert can_retrieve(hi, False, t, relevance)
    assert ORDER.index(recall_marker(lo, False, t, relevance)) <= ORDER.index(recall_marker(hi, False, t, relevance))


@given(unit, unit, unit, any_profile)
def test_retrieval_is_monotone_in_cue_match(m: float, r1: float, r2: float, profile: Profile) -> None:
    lo, hi = sorted((r1, r2))
    t = profile.retrieval_threshold
    assert retrieval_floor(t, hi) <= retrieval_floor(t, lo)
    if can_retrieve(m, False, t, lo):
        assert can_retrieve(m, False, t, hi)


@given(unit, unit, any_profile)
def test_the_marker_reflects_strength_never_the_cue(m: float, relevance: float, profile: Profile) -> None:
    t = profile.retrieval_threshold
    free = clarity_marker(m, False, t)
    cued = recall_marker(m, False, t, relevance)
    # the cue can only bring back a memory free recall misses, and then as VAGUE; it never changes a marker
    assert cued == free or (free is None and cued in (None, Marker.VAGUE))


@given(unit, any_profile)
def test_without_a_cue_retrieval_is_free_recall(m: float, profile: Profile) -> None:
    t = profile.retrieval_threshold
    assert recall_marker(m, False, t, 0.0) == clarity_marker(m, False, t)
    assert recall_marker(m, True, t, 0.0) is Marker.FLASHBULB


@given(unit, unit, any_profile)
def test_flashbulbs_are_always_retrieved(m: float, relevance: float, profile: Profile) -> None:
    assert recall_marker(m, True, profile.retrieval_threshold, relevance) is Marker.FLASHBULB


@given(unit, any_profile)
def test_nothing_below_the_cue_floor_comes_back(relevance: float, profile: Profile) -> None:
    t = profile.retrieval_threshold
    below = cue_floor(t) * 0.999
    assert not can_retrieve(below, False, t, relevance)
    assert can_retrieve(cue_floor(t), False, t, 1.0)


@given(st.floats(0.0, 1.0))
def test_cue_support_zero_switches_cued_recall_off(relevance: float) -> None:
    params = replace(PARAMS, recall=replace(PARAMS.recall, cue_support=0.0))
    assert retrieval_floor(0.18, relevance, params) == pytest.approx(0.18)
    assert recall_marker(0.17, False, 0.18, relevance, params) is None


def test_out_of_range_inputs_are_refused() -> None:
    with pytest.raises(UsageProblem, match="relevance"):
        retrieval_floor(0.18, 1.5)
    with pytest.raises(UsageProblem, match="strength"):
        can_retrieve(-0.1, False, 0.18, 0.5)
