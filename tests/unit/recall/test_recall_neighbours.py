"""The neighbourhood of a statement in its conversation (docs/model.md#candidates-and-ranking,
graphmem.recall.neighbours): which candidates were said right before and after each one, and what that adds."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.model import default_parameters
from graphmem.recall.neighbours import NO_TALK, conversation_key, neighbours
from graphmem.recall.ranking import relevance, score_candidates, top_k

P = default_parameters()


def test_neighbours_are_the_statements_said_right_before_and_after_in_the_same_conversation() -> None:
    # two conversations (1 and 2) interleaved in the log, and a vote (no conversation)
    talks = np.array([1, 2, 1, NO_TALK, 1, 2], dtype=np.int64)
    lines = np.array([10, 11, 12, 13, 15, 16], dtype=np.int64)
    assert neighbours(talks, lines).tolist() == [[-1, 2], [-1, 5], [0, 4], [-1, -1], [2, -1], [1, -1]]


def test_a_statement_the_owner_cannot_recall_joins_nothing() -> None:
    # lines 10, 12, 15 of one conversation: with line 12 no candidate, 10 and 15 are each other's neighbours
    assert neighbours(np.array([1, 1], dtype=np.int64), np.array([10, 15], dtype=np.int64)).tolist() == [[-1, 1],
                                                                                                       [0, -1]]
    assert neighbours(np.array([1], dtype=np.int64), np.array([10], dtype=np.int64)).tolist() == [[-1, -1]]


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1_000)), max_size=30, unique_by=lambda t: t[1]),
       st.randoms(use_true_random=False))
def test_neighbours_do_not_depend_on_the_order_of_the_candidates(rows: list[tuple[int, int]], rnd: object) -> None:
    talks = np.array([t for t, _ in rows], dtype=np.int64)
    lines = np.array([line for _, line in rows], dtype=np.int64)
    order = np.arange(len(rows))
    rnd.shuffle(order)  # type: ignore[attr-defined]
    base = neighbours(talks, lines)
    moved = neighbours(talks[order], lines[order])
    back = np.argsort(order)  # candidate i of the original is candidate back[i] of the shuffled
    expected = np.where(base >= 0, back[np.maximum(base, 0)], -1)
    assert moved[back].tolist() == expected.tolist()


def test_a_conversation_is_its_phase_channel_and_for_a_private_one_its_people() -> None:
    public = {"phase": 3, "line": 40, "channel": "roundtable", "witnesses": ["Ann", "Bob", "Cy"]}
    assert conversation_key(public) == (3, "roundtable", ())
    one = {"phase": 3, "line": 41, "channel": "private", "witnesses": ["Bob", "Ann"]}
    other = {"phase": 3, "line": 42, "channel": "private", "witnesses": ["Ann", "Cy"]}
    assert conversation_key(one) == (3, "private", ("Ann", "Bob"))
    assert conversation_key(one) != conversation_key(other)
    assert conversation_key(None) is None


def test_a_memory_takes_a_share_of_its_best_neighbours_content_relevance() -> None:
    # a reply (b) that shares no word with the topic, right after the question (a) that matched it
    strengths, flash, thresholds = np.ones(3), np.zeros(3, dtype=bool), np.zeros(3)
    dense = np.array([1.0, 0.0, 0.0])  # min-max: a 1, b and c 0
    lexical = np.array([2.0, 0.0, 0.0])
    near = np.array([[-1, 1], [0, -1], [-1, -1]], dtype=np.intp)
    scores = score_candidates(strengths, flash, thresholds, dense, lexical, np.zeros(3, dtype=bool), P,
                              neighbours=near)
    w = P.recall.neighbour_weight
    assert scores.neighbour.tolist() == pytest.approx([0.0, 1.0, 0.0])
    assert scores.relevance.tolist() == pytest.approx([1.0, w, 0.0])
    assert scores.relevance[1] == pytest.approx(relevance(0.0, 0.0, False, P, neighbour=1.0))
    without = score_candidates(strengths, flash, thresholds, dense, lexical, np.zeros(3, dtype=bool), P)
    assert without.relevance.tolist() == pytest.approx([1.0, 0.0, 0.0])


def test_only_the_best_content_matches_lend_to_their_neighbours() -> None:
    # a (content 1) and c (content 0.5) each precede a reply; with one lender only a's reply gains
    strengths, flash, thresholds = np.ones(4), np.zeros(4, dtype=bool), np.zeros(4)
    dense = np.array([1.0, 0.0, 0.5, 0.0])
    lexical = np.array([2.0, 0.0, 1.0, 0.0])
    near = np.array([[-1, 1], [0, -1], [-1, 3], [2, -1]], dtype=np.intp)
    about = np.zeros(4, dtype=bool)
    lend = {n: replace(P, recall=replace(P.recall, neighbour_lenders=n)) for n in (1, 2)}
    one = score_candidates(strengths, flash, thresholds, dense, lexical, about, lend[1], neighbours=near)
    assert one.neighbour.tolist() == pytest.approx([0.0, 1.0, 0.0, 0.0])
    two = score_candidates(strengths, flash, thresholds, dense, lexical, about, lend[2], neighbours=near)
    assert two.neighbour.tolist() == pytest.approx([0.0, 1.0, 0.0, 0.5])


def test_candidates_whose_relevance_reaches_the_cap_are_ordered_by_what_they_matched() -> None:
    # both reach relevance 1 (the cap); b matched more (its raw relevance is higher): it comes first, whatever the uid
    strengths, flash, thresholds = np.ones(3), np.zeros(3, dtype=bool), np.zeros(3)
    dense = np.array([1.0, 0.9, 0.0])
    lexical = np.array([1.0, 1.0, 0.0])
    source = np.array([0.0, 1.0, 0.0])
    scores = score_candidates(strengths, flash, thresholds, dense, lexical, np.zeros(3, dtype=bool), P, source=source)
    assert scores.relevance[:2].tolist() == [1.0, 1.0]
    assert scores.raw[1] > scores.raw[0]
    assert [r.uid for r in top_k(["a", "b", "c"], strengths, flash, thresholds, scores, 2, P)] == ["b", "a"]
