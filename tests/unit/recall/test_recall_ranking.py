"""Ranking math of recall (SPEC 6 steps 1-2): normalisation, relevance, score, filter, top k."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.model import default_parameters
from graphmem.model.vocabulary import Marker
from graphmem.recall.ranking import is_about, min_max, rank, relative_to_best, relevance, score

P = default_parameters()


def test_min_max_maps_the_owners_range_onto_zero_to_one() -> None:
    assert min_max([0.2, 0.6, 0.4]) == pytest.approx([0.0, 1.0, 0.5])
    assert min_max([0.7, None, 0.9]) == pytest.approx([0.0, 0.0, 1.0])


def test_min_max_of_a_degenerate_range_is_zero() -> None:
    assert min_max([0.8]) == [0.0]
    assert min_max([0.5, 0.5]) == [0.0, 0.0]
    assert min_max([None, None]) == [0.0, 0.0]
    assert min_max([]) == []


@given(st.lists(st.floats(-1.0, 1.0), min_size=2, max_size=30))
def test_min_max_is_bounded_and_keeps_the_order(values: list[float]) -> None:
    out = min_max(values)
    assert all(0.0 <= x <= 1.0 for x in out)
    for a, b, x, y in zip(values, values[1:], out, out[1:]):
        if a < b:
            assert x <= y


def test_min_max_ignores_an_affine_transform_of_the_cosine() -> None:
    cosines = [-0.2, 0.1, 0.7, 0.4]
    assert min_max([(1 + c) / 2 for c in cosines]) == pytest.approx(min_max(cosines))


def test_lexical_is_relative_to_the_best_candidate_and_ignores_others() -> None:
    scores = {"a": 2.0, "b": 1.0, "other-owner": 9.0}
    assert relative_to_best(scores, ["a", "b", "c"]) == {"a": 1.0, "b": 0.5, "c": 0.0}
    assert relative_to_best({}, ["a", "b"]) == {"a": 0.0, "b": 0.0}
    assert relative_to_best({"z": 3.0}, ["a"]) == {"a": 0.0}


def test_relevance_weights_and_participant_boost_with_cap() -> None:
    assert relevance(1.0, 0.0, False, P) == pytest.approx(0.5)
    assert relevance(0.4, 0.8, False, P) == pytest.approx(0.6)
    assert relevance(0.4, 0.8, True, P) == pytest.approx(0.8)
    assert relevance(1.0, 1.0, True, P) == 1.0
    assert relevance(0.0, 0.0, True, P) == pytest.approx(0.2)  # no topic: the boost still applies


def test_score_is_point_six_relevance_plus_point_four_strength() -> None:
    assert score(0.5, 0.8, P) == pytest.approx(0.6 * 0.5 + 0.4 * 0.8)


def test_is_about_any_participant() -> None:
    assert is_about(("Marcus", "Sarah"), ("Sarah",))
    assert not is_about(("Marcus",), ("Sarah", "Eleanor"))
    assert not is_about((), ("Sarah",))


def test_rank_filters_unrecallable_keeps_flashbulbs_and_takes_best_k() -> None:
    uids = ["a", "b", "c", "d", "e"]
    strengths = [0.9, 0.5, 0.19, 0.10, 0.8]
    flash = [False, False, False, False, True]
    thresholds = [0.2] * 5
    dense = [0.1, 0.9, 0.9, 0.9, 0.1]
    scored, recalled = rank(uids, strengths, flash, thresholds, dense, {}, [False] * 5, 3, P)
    markers = {r.uid: r.marker for r in scored}
    assert markers == {"a": Marker.CLEAR, "b": Marker.FUZZY, "c": None, "d": None, "e": Marker.FLASHBULB}
    # b: 0.6 * 0.5 * 1 + 0.4 * 0.5 = 0.5; a: 0.4 * 0.9 = 0.36; e: 0.4 * 0.8 = 0.32
    assert [r.uid for r in recalled] == ["b", "a", "e"]
    assert recalled[0].score == pytest.approx(0.5)
    _, top1 = rank(uids, strengths, flash, thresholds, dense, {}, [False] * 5, 1, P)
    assert [r.uid for r in top1] == ["b"]


def test_rank_without_topic_orders_by_strength_and_boost() -> None:
    uids = ["a", "b", "c"]
    _, recalled = rank(uids, [0.5, 0.9, 0.6], [False] * 3, [0.18] * 3, [None] * 3, {}, [False, False, True], 10, P)
    # c: 0.6 * 0.2 + 0.4 * 0.6 = 0.36 = b: 0.4 * 0.9; tie broken by uid
    assert [r.uid for r in recalled] == ["b", "c", "a"]
    assert recalled[0].score == pytest.approx(recalled[1].score)


def test_rank_uses_lexical_scores_relative_to_the_best() -> None:
    _, recalled = rank(["a", "b"], [0.5, 0.5], [False, False], [0.18] * 2, [None, None], {"b": 4.0, "a": 1.0},
                       [False, False], 10, P)
    assert [(r.uid, r.lexical) for r in recalled] == [("b", 1.0), ("a", 0.25)]
