"""Ranking math of recall (docs/model.md#candidates-and-ranking): normalisation, relevance, score, filter, top k."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.model import default_parameters
from graphmem.model.clarity import clarity_marker
from graphmem.model.retrieval import recall_marker
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
    # c has faded below the threshold 0.2, but the cue matches it (relevance 0.5): it needs only
    # 0.2 * (1 - 0.5 * 0.5) = 0.15 and comes back, VAGUE; d (0.10) is too faded for any cue
    assert markers == {"a": Marker.CLEAR, "b": Marker.FUZZY, "c": Marker.VAGUE, "d": None, "e": Marker.FLASHBULB}
    # b: 0.6 * 0.5 * 1 + 0.4 * 0.5 = 0.5; c: 0.3 + 0.4 * 0.19 = 0.376; a: 0.4 * 0.9 = 0.36; e: 0.4 * 0.8 = 0.32
    assert [r.uid for r in recalled] == ["b", "c", "a"]
    assert recalled[0].score == pytest.approx(0.5)
    _, top1 = rank(uids, strengths, flash, thresholds, dense, {}, [False] * 5, 1, P)
    assert [r.uid for r in top1] == ["b"]


def test_a_faded_memory_the_cue_does_not_match_stays_forgotten() -> None:
    # both have faded to 0.19, below the threshold 0.2: only the one the topic matches comes back
    scored, recalled = rank(["match", "other"], [0.19, 0.19], [False, False], [0.2, 0.2], [0.9, 0.1], {},
                            [False, False], 10, P)
    assert [(r.uid, r.marker) for r in scored] == [("match", Marker.VAGUE), ("other", None)]
    assert [r.uid for r in recalled] == ["match"]


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


candidate = st.tuples(st.floats(0.0, 1.0), st.booleans(), st.sampled_from([0.0, 0.1, 0.15, 0.18, 0.2, 0.3]),
                      st.one_of(st.none(), st.floats(-1.0, 1.0)), st.floats(0.0, 10.0), st.booleans())


@given(st.lists(candidate, min_size=1, max_size=25), st.integers(1, 12))
def test_the_vectorised_scores_equal_the_scalar_formulas(rows: list[tuple[float, bool, float, float | None, float,
                                                                          bool]], k: int) -> None:
    uids = [f"m{i:02d}" for i in range(len(rows))]
    strengths, flash, thresholds, dense, lex, about = (list(col) for col in zip(*rows))
    scored, recalled = rank(uids, strengths, flash, thresholds, dense, dict(zip(uids, lex)), about, k, P)
    dn = min_max(dense)
    ln = relative_to_best(dict(zip(uids, lex)), uids)
    for i, r in enumerate(scored):
        rel = relevance(dn[i], ln[uids[i]], about[i], P)
        assert r.relevance == rel and r.score == score(rel, strengths[i], P)
        assert r.marker == recall_marker(strengths[i], flash[i], thresholds[i], rel, P)
    # equal scores go by the relevance before its cap at 1, then by uid
    raw = {u: P.recall.dense_weight * dn[i] + P.recall.lexical_weight * ln[u] + P.recall.participant_boost * about[i]
           for i, u in enumerate(uids)}
    expected = sorted((r for r in scored if r.marker is not None), key=lambda r: (-r.score, -raw[r.uid], r.uid))[:k]
    assert recalled == expected


@given(st.lists(st.tuples(st.floats(0.0, 1.0), st.booleans(), st.sampled_from([0.15, 0.18, 0.2])), min_size=1,
                max_size=20))
def test_a_recall_without_topic_or_participants_filters_as_free_recall(rows: list[tuple[float, bool, float]]) -> None:
    uids = [f"m{i:02d}" for i in range(len(rows))]
    strengths, flash, thresholds = (list(col) for col in zip(*rows))
    scored, recalled = rank(uids, strengths, flash, thresholds, None, {}, [False] * len(rows), 100, P)
    assert [r.marker for r in scored] == [clarity_marker(m, f, t, P) for m, f, t in rows]
    # ranked by score, 0.4 m without relevance (two strengths whose scores round to the same value tie: by uid)
    assert [r.uid for r in recalled] == sorted((u for u, (m, f, t) in zip(uids, rows) if f or m >= max(0.15, t)),
                                               key=lambda u: (-score(0.0, strengths[uids.index(u)], P), u))
