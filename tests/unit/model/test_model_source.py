"""Source monitoring: initial confidence, exponent, decay and belief (docs/model.md#source-memory)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import UsageProblem
from graphmem.model.forgetting import half_life, retention
from graphmem.model.params import Profile
from graphmem.model.source import SourceType, initial_source_confidence, source_belief, source_confidence, source_exponent
from tests.unit.model.model_strategies import PARAMS, PROFILE_NAMES, any_profile, curves, stabilities

ANALYTICAL = PARAMS.profile("analytical")
encoded_types = st.sampled_from([t for t in SourceType if t is not SourceType.UNKNOWN])


def test_initial_confidence_per_source_type() -> None:
    assert [initial_source_confidence(t) for t in ("first_hand", "direct_told", "overheard", "group_discuss",
                                                   "inferred")] == [1.0, 0.9, 0.7, 0.6, 0.5]
    with pytest.raises(UsageProblem, match="unknown"):
        initial_source_confidence(SourceType.UNKNOWN)
    with pytest.raises(UsageProblem, match="first_hand"):
        initial_source_confidence("telepathy")


def test_source_exponent_per_profile() -> None:
    expected = {"analytical": 1.5, "intuitive": 1 + 0.5 * 5 / 3, "balanced": 1 + 0.4 * 5 / 3,
                "emotional": 2.0, "paranoid": 1 + 0.2 * 5 / 3}
    for name in PROFILE_NAMES:
        assert source_exponent(PARAMS.profile(name)) == pytest.approx(expected[name], rel=1e-12)


@given(encoded_types, any_profile, stabilities, st.integers(0, 300), st.integers(0, 50), curves)
def test_source_never_outlasts_content(st_: SourceType, profile: Profile, s_enc: float, dt: int, t_enc: int,
                                      curve: str) -> None:
    c0 = initial_source_confidence(st_)
    c = source_confidence(c0, t_enc + dt, t_enc, s_enc, source_exponent(profile), curve)
    assert 0.0 <= c <= c0
    assert c / c0 <= retention(dt, s_enc, curve) * (1 + 1e-12)


@given(stabilities, st.integers(0, 300))
def test_analytical_source_fades_exactly_one_and_a_half_times_faster(s_enc: float, dt: int) -> None:
    c = source_confidence(1.0, dt, 0, s_enc, source_exponent(ANALYTICAL), "exponential")
    r = retention(dt, s_enc, "exponential")
    if r > 1e-300 and c > 0.0:
        assert math.log(c) == pytest.approx(1.5 * math.log(r), rel=1e-9, abs=1e-12)
    # with the exponential curve the source reaches one half at two thirds of the content's half-life
    assert source_confidence(1.0, half_life(s_enc) / 1.5, 0, s_enc, 1.5, "exponential") == pytest.approx(0.5, rel=1e-9)


@given(encoded_types, st.floats(0.0, 1.0))
def test_belief_becomes_unknown_below_0_3(st_: SourceType, c: float) -> None:
    belief = source_belief(st_, c)
    assert belief == ("unknown" if c < 0.3 else st_.value)


def test_belief_edges() -> None:
    assert source_belief("direct_told", 0.3) == "direct_told"
    assert source_belief("direct_told", 0.2999) == "unknown"


def test_bad_exponent_is_rejected() -> None:
    with pytest.raises(UsageProblem, match="k must be >= 1"):
        source_confidence(0.9, 3, 0, 4.0, 0.5)
