"""Salience at encoding (docs/model.md#salience) and the appraisal table (docs/model.md#the-appraisal-table)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import UsageProblem
from graphmem.model.clarity import clarity_marker
from graphmem.model.encoding import encoding_strength
from graphmem.model.params import Profile
from graphmem.model.salience import Situation, appraise, dominant_emotion, emotional_weight, personal_relevance, salience
from tests.unit.model.model_strategies import PARAMS, PROFILE_NAMES, any_profile, below_one, emotions, unit

BALANCED = PARAMS.profile("balanced")


def test_appraisal_table_rows_of_spec_3_5() -> None:
    murder = appraise(Situation.MURDER_REVEALED_FAITHFUL, PARAMS)
    assert (murder.relevance, dict(murder.emotions)) == (0.9, {"fear": 0.6})
    assert (murder.surprise, murder.consequence) == (0.8, 0.8)
    accused = appraise("accused", PARAMS)
    assert (accused.relevance, dict(accused.emotions)) == (0.8, {"fear": 0.7, "anger": 0.5})
    assert appraise(Situation.OTHER).relevance == 0.2
    assert dict(appraise(Situation.TRAITORS_MURDER_DISCUSSION).emotions) == {"paranoia": 0.3}
    assert len(PARAMS.appraisal) == len(Situation) == 15  # the appraisal table's 11 rows and the 4 of mission games


def test_mission_game_rows_a_failed_quest_one_was_on_is_a_flashbulb_being_left_off_is_not() -> None:
    from graphmem.model.flashbulb import is_flashbulb
    from graphmem.model.salience import personal_relevance

    def flashbulb(situation: Situation) -> bool:
        a = appraise(situation, PARAMS)
        return is_flashbulb(dict(a.emotions), a.surprise, personal_relevance(a.relevance, True, PARAMS),
                            a.consequence, PARAMS)

    on_team = appraise(Situation.QUEST_FAILED_ON_TEAM, PARAMS)
    assert (on_team.relevance, dict(on_team.emotions)) == (0.9, {"fear": 0.6, "anger": 0.4})
    assert flashbulb(Situation.QUEST_FAILED_ON_TEAM)
    assert not flashbulb(Situation.QUEST_FAILED) and not flashbulb(Situation.LEFT_OFF_TEAM)
    assert not flashbulb(Situation.QUEST_OUTCOME_TRAITOR)
    left_off = appraise(Situation.LEFT_OFF_TEAM, PARAMS)
    assert (left_off.relevance, dict(left_off.emotions)) == (0.6, {"paranoia": 0.3})
    # a failed quest weighs more on the side that lost it than on the side that failed it
    assert (appraise(Situation.QUEST_FAILED, PARAMS).relevance
            > appraise(Situation.QUEST_OUTCOME_TRAITOR, PARAMS).relevance)


def test_banishment_brings_fear_only_to_those_who_voted_out_a_faithful() -> None:
    assert dict(appraise(Situation.BANISHMENT_REVEAL).emotions) == {}
    regret = appraise(Situation.BANISHMENT_REVEAL, voted_out_faithful=True)
    assert dict(regret.emotions) == {"fear": 0.5}
    assert (regret.relevance, regret.surprise, regret.consequence) == (0.85, 0.6, 0.7)


def test_unknown_situation_is_rejected() -> None:
    with pytest.raises(UsageProblem, match="murder_revealed_faithful"):
        appraise("coronation")


def test_worked_examples() -> None:
    assert personal_relevance(0.5, True) == pytest.approx(0.65)
    assert personal_relevance(0.5, False) == 0.5
    assert emotional_weight(0.6, True, 0.5) == pytest.approx(0.36)  # 0.4 * 0.6 * 1.5 * 1.0
    assert emotional_weight(0.6, False, 0.5) == pytest.approx(0.24)
    # murder revealed to a faithful, balanced: r' = 0.9, e = 0.36 -> 1 - 0.1 * 0.64
    assert salience(0.9, False, {"fear": 0.6}, BALANCED) == pytest.approx(0.936)


@given(unit, st.booleans(), emotions, any_profile)
def test_salience_is_in_the_unit_interval(r: float, involved: bool, emo: dict[str, float], profile: Profile) -> None:
    assert 0.0 <= salience(r, involved, emo, profile) <= 1.0


@given(unit, unit, st.booleans(), emotions, any_profile)
def test_salience_is_monotone_in_relevance(r1: float, r2: float, involved: bool, emo: dict[str, float],
                                           profile: Profile) -> None:
    lo, hi = sorted((r1, r2))
    assert salience(lo, involved, emo, profile) <= salience(hi, involved, emo, profile)


@given(unit, emotions, any_profile)
def test_involvement_never_lowers_salience(r: float, emo: dict[str, float], profile: Profile) -> None:
    assert salience(r, True, emo, profile) >= salience(r, False, emo, profile)
    if r < 0.999:
        assert salience(r, True, emo, profile) > salience(r, False, emo, profile)


@given(unit, st.booleans(), st.sampled_from(["fear", "joy"]), unit, unit, any_profile)
def test_salience_is_monotone_in_the_dominant_intensity(r: float, involved: bool, name: str, i1: float, i2: float,
                                                       profile: Profile) -> None:
    lo, hi = sorted((i1, i2))
    assert salience(r, involved, {name: lo}, profile) <= salience(r, involved, {name: hi}, profile)


@given(unit, st.booleans(), st.floats(0.01, 1.0), any_profile)
def test_threat_emotions_encode_more_strongly(r: float, involved: bool, i: float, profile: Profile) -> None:
    for threat in ("fear", "anger", "paranoia"):
        assert salience(r, involved, {threat: i}, profile) >= salience(r, involved, {"joy": i}, profile)


@given(unit, st.booleans(), emotions, unit, unit, any_profile)
def test_salience_is_monotone_in_emotional_memory_bias(r: float, involved: bool, emo: dict[str, float], b1: float,
                                                      b2: float, profile: Profile) -> None:
    lo, hi = sorted((b1, b2))
    assert salience(r, involved, emo, replace(profile, emotional_memory_bias=lo)) <= \
        salience(r, involved, emo, replace(profile, emotional_memory_bias=hi))


@given(below_one, st.booleans(), emotions, any_profile)
def test_salience_never_reaches_one_unless_an_input_is_one(r: float, involved: bool, emo: dict[str, float],
                                                          profile: Profile) -> None:
    assert salience(r, involved, emo, profile) < 1.0


@given(st.booleans(), emotions, any_profile)
def test_full_relevance_gives_full_salience(involved: bool, emo: dict[str, float], profile: Profile) -> None:
    assert salience(1.0, involved, emo, profile) == 1.0


@given(st.floats(0.0, 0.99), st.floats(0.001, 0.01), emotions, any_profile)
def test_no_saturation_before_relevance_is_one(r: float, step: float, emo: dict[str, float], profile: Profile) -> None:
    # the seed clipped at 1 for a third of inputs (docs/model.md#defects-of-the-seed-formulas); here more relevance
    # always adds salience
    assert salience(r + step, False, emo, profile) > salience(r, False, emo, profile)


def test_dominant_emotion_is_the_largest_and_ties_go_to_threat() -> None:
    assert dominant_emotion({"joy": 0.4, "fear": 0.7}) == ("fear", 0.7)
    assert dominant_emotion({"joy": 0.5, "anger": 0.5}) == ("anger", 0.5)
    assert dominant_emotion({"joy": 0.5, "trust": 0.5}) == ("joy", 0.5)
    assert dominant_emotion({}) == (None, 0.0)


def test_out_of_range_inputs_are_rejected() -> None:
    with pytest.raises(UsageProblem, match="r must be in"):
        salience(1.2, False, {}, BALANCED)
    with pytest.raises(UsageProblem, match="fear"):
        salience(0.5, False, {"fear": 1.5}, BALANCED)


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_every_shipped_profile_can_produce_clear(name: str) -> None:
    profile = PARAMS.profile(name)
    a = appraise(Situation.ACCUSED)
    sal = salience(a.relevance, True, a.emotions, profile)
    assert clarity_marker(encoding_strength(sal, profile), False, profile.retrieval_threshold) == "CLEAR"
    # even a mundane event is CLEAR right after encoding: E0 >= BaseEncodingStrength >= 0.65 plus salience
    other = salience(appraise(Situation.OTHER).relevance, False, {}, profile)
    assert encoding_strength(other, profile) >= 0.70


@given(any_profile)
def test_every_valid_profile_can_produce_clear(profile: Profile) -> None:
    sal = salience(0.9, True, {"fear": 0.8}, profile)
    assert clarity_marker(encoding_strength(sal, profile), False, profile.retrieval_threshold) == "CLEAR"
