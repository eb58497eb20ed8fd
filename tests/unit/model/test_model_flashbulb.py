"""Flashbulb memories: criteria on both sides of each threshold, floor, emotional context
(docs/model.md#flashbulb-memories)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import GraphmemError
from graphmem.model.clarity import clarity_marker
from graphmem.model.encoding import encoding_strength, stability
from graphmem.model.flashbulb import EmotionalContext, emotional_peak, flashbulb_score, is_flashbulb, strength_floor
from graphmem.model.forgetting import strength_at
from graphmem.model.params import Profile
from graphmem.model.salience import Situation, appraise, personal_relevance
from tests.unit.model.model_strategies import PARAMS, any_profile, curves, emotion_names, unit


def test_score_formula() -> None:
    assert flashbulb_score(0.6, 0.8, 0.9, 0.8) == pytest.approx(0.18 + 0.2 + 0.225 + 0.16)


@given(st.dictionaries(emotion_names, st.floats(0.0, 0.59), min_size=1), unit, unit, unit)
def test_peak_below_0_6_is_never_a_flashbulb(emo: dict[str, float], surprise: float, rel: float, cons: float) -> None:
    assert not is_flashbulb(emo, surprise, rel, cons)


@given(st.floats(0.6, 1.0), st.floats(0.0, 1.0))
def test_a_candidate_with_everything_maximal_is_a_flashbulb(peak: float, other: float) -> None:
    assert is_flashbulb({"fear": peak, "joy": other * peak}, 1.0, 1.0, 1.0)


def test_both_sides_of_the_candidate_threshold() -> None:
    assert not is_flashbulb({"fear": 0.59}, 1.0, 1.0, 1.0)
    assert is_flashbulb({"fear": 0.6}, 1.0, 1.0, 1.0)
    assert not is_flashbulb({}, 1.0, 1.0, 1.0)


def test_both_sides_of_the_score_threshold() -> None:
    # score exactly 0.7 in decimal arithmetic is a flashbulb; 0.01 less is not
    assert is_flashbulb({"fear": 0.7}, 0.7, 0.7, 0.7)
    assert flashbulb_score(0.7, 0.7, 0.7, 0.66) == pytest.approx(0.692)
    assert not is_flashbulb({"fear": 0.7}, 0.7, 0.7, 0.66)


def test_table_situations() -> None:
    def flash(situation: Situation, involved: bool) -> bool:
        a = appraise(situation)
        return is_flashbulb(a.emotions, a.surprise, personal_relevance(a.relevance, involved), a.consequence)
    assert flash(Situation.MURDER_REVEALED_FAITHFUL, False)   # 0.765
    assert flash(Situation.ACCUSED, True)                      # 0.735
    assert flash(Situation.RECRUITED, True)
    assert not flash(Situation.PRIVATE_TO_OWNER, True)         # trust 0.3: not a candidate
    assert not flash(Situation.BANISHMENT_REVEAL, False)       # no emotion appraised


@given(unit, unit, unit, unit, unit)
def test_score_is_bounded_and_monotone(p: float, s: float, r: float, c: float, bump: float) -> None:
    base = flashbulb_score(p, s, r, c)
    assert 0.0 <= base <= 1.0 + 1e-12
    assert flashbulb_score(max(p, bump), s, r, c) >= base
    assert flashbulb_score(p, max(s, bump), r, c) >= base
    assert flashbulb_score(p, s, max(r, bump), c) >= base
    assert flashbulb_score(p, s, r, max(c, bump)) >= base


@given(any_profile, unit, st.integers(0, 10_000), curves)
def test_the_floor_holds_and_the_marker_stays_flashbulb(profile: Profile, sal: float, t: int, curve: str) -> None:
    e0 = encoding_strength(sal, profile, flashbulb=True)
    assert e0 == 1.0
    m = strength_at(e0, 0, stability(sal, profile, flashbulb=True), t, curve, strength_floor(True))
    assert 0.8 <= m <= 1.0
    assert clarity_marker(m, True, profile.retrieval_threshold) == "FLASHBULB"


def test_floor_values() -> None:
    assert strength_floor(True) == 0.8 and strength_floor(False) == 0.0
    assert strength_floor(True, PARAMS) == PARAMS.flashbulb.floor


def test_emotional_context_keeps_the_full_vector() -> None:
    ctx = EmotionalContext.of({"anger": 0.6, "fear": 0.85, "joy": 0.0})
    assert ctx.describe() == "Fear (0.85), Anger (0.60)"
    assert ctx.peak == 0.85 == emotional_peak(ctx.emotions)
    assert EmotionalContext.from_json(ctx.to_json()) == ctx
    assert dict(EmotionalContext.from_json(ctx.to_json()).emotions) == {"anger": 0.6, "fear": 0.85, "joy": 0.0}
    with pytest.raises(GraphmemError):
        EmotionalContext.from_json("[1, 2]")
