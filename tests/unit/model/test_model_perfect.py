"""The ``perfect`` profile (docs/model.md#profiles): the control condition. No forgetting, no distortion, no source
fading, every memory recallable, and recall ranks by relevance alone."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import ConfigError
from graphmem.model.clarity import lifecycle_state
from graphmem.model.details import Detail
from graphmem.model.encoding import encoding_strength, stability
from graphmem.model.forgetting import half_life, strength_at
from graphmem.model.params import load_parameters
from graphmem.model.reconsolidation import MemoryState, SimilarMemory, reconsolidate, with_result
from graphmem.model.retrieval import recall_marker
from graphmem.model.source import source_belief, source_confidence, source_exponent
from graphmem.model.vocabulary import DetailKind, LifecycleState, Marker, MemoryType, SourceType
from graphmem.recall.ranking import rank
from tests.unit.model.model_strategies import PARAMS, curves, unit

PERFECT = PARAMS.profile("perfect")
BALANCED = PARAMS.profile("balanced")


@given(unit, st.booleans(), st.sampled_from(list(MemoryType)), curves, st.integers(0, 10_000))
def test_strength_stays_at_one_forever(salience: float, flashbulb: bool, memory_type: MemoryType, curve: str,
                                       phases: int) -> None:
    e0 = encoding_strength(salience, PERFECT, flashbulb)
    s = stability(salience, PERFECT, memory_type, flashbulb)
    assert e0 == 1.0 and s == math.inf and half_life(s) == math.inf
    assert strength_at(e0, 0, s, phases, curve) == 1.0
    assert lifecycle_state(1.0, PERFECT.retrieval_threshold) is LifecycleState.ACTIVE


@given(st.sampled_from([t for t in SourceType if t is not SourceType.UNKNOWN]), curves, st.integers(0, 10_000))
def test_the_source_never_fades(source_type: SourceType, curve: str, phases: int) -> None:
    c0 = PARAMS.source.initial_confidence[source_type.value]
    k = source_exponent(PERFECT)
    c = source_confidence(c0, phases, 0, stability(0.3, PERFECT), k, curve)
    assert c == c0 and source_belief(source_type, c) == source_type.value


@given(unit, unit, st.integers(1, 40), st.integers(0, 10_000))
def test_recalls_never_distort(salience: float, emotion: float, recalls: int, seed: int) -> None:
    details = (Detail(DetailKind.WHO, "Riley"), Detail(DetailKind.WHERE, "at the round table"),
               Detail(DetailKind.WHEN, "2"), Detail(DetailKind.QUOTE, "I trust Casey"))
    state = MemoryState(uid="g/memory/Parker/7", e_ref=1.0, t_ref=0, s=math.inf, n=0, salience=salience, t_enc=0,
                        s_enc=math.inf, c0=0.6, source_k=source_exponent(PERFECT),
                        source_type=SourceType.GROUP_DISCUSS, teller="Riley", details=details)
    donor = SimilarMemory("g/memory/Parker/9", 0.95, (Detail(DetailKind.WHO, "Casey"),), teller="Casey")
    for i in range(recalls):
        result = reconsolidate(state, 3 * (i + 1), emotion, [donor], PERFECT, PARAMS, seed)
        assert result.strength == 1.0 and not result.changes and result.rho <= PARAMS.reconsolidation.loss_onset
        state = with_result(state, result)
    assert state.details == details and state.believed_teller == "Riley"


@given(unit, unit)
def test_every_memory_is_recallable(strength: float, relevance: float) -> None:
    # a perfect memory's strength is 1; even a weaker one (a summary of fallible members) passes the floor of 0.15 *
    # (1 - CueSupport * relevance) once it is at 0.15
    assert recall_marker(1.0, False, PERFECT.retrieval_threshold, relevance) is Marker.CLEAR
    if strength >= 0.15:
        assert recall_marker(strength, False, PERFECT.retrieval_threshold, relevance) is not None


@given(st.lists(st.tuples(st.floats(-1.0, 1.0), st.floats(0.0, 5.0)), min_size=2, max_size=20))
def test_recall_ranks_by_relevance_alone(rows: list[tuple[float, float]]) -> None:
    uids = [f"m{i:02d}" for i in range(len(rows))]
    dense = [d for d, _ in rows]
    lexical = {u: x for u, (_, x) in zip(uids, rows)}
    scored, recalled = rank(uids, [1.0] * len(rows), [False] * len(rows), [0.0] * len(rows), dense, lexical,
                            [False] * len(rows), len(rows), PARAMS)
    assert len(recalled) == len(rows) and {r.uid for r in recalled} == set(uids)
    for better, worse in zip(recalled, recalled[1:]):  # strength is 1 for all: the order is relevance's
        assert better.relevance >= worse.relevance - 1e-12


def test_only_long_term_memory_differs_from_balanced() -> None:
    assert PERFECT.working_memory_capacity == BALANCED.working_memory_capacity
    assert PERFECT.emotional_memory_bias == BALANCED.emotional_memory_bias


def test_a_decay_rate_of_zero_means_never_and_rates_below_flashbulbs_stay_refused() -> None:
    mine = load_parameters({"profiles": {"mine": {"base_decay_rate": 0.0}}})
    assert stability(0.5, mine.profile("mine")) == math.inf
    with pytest.raises(ConfigError, match=r"profiles\.mine\.base_decay_rate.*must be 0 \(never forgets\)"):
        load_parameters({"profiles": {"mine": {"base_decay_rate": 0.01}}})
