"""Dense scores of recall (docs/model.md#candidates-and-ranking): the better cosine of the topic with a memory's
text and its context, the same value for a memory whichever other memories are scored with it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.recall.pipeline import dense_scores
from graphmem.recall.vectors import GameVectors


def _game(n: int, seed: int) -> GameVectors:
    rng = np.random.default_rng(seed)
    vectors = GameVectors()
    for i in range(n):
        text, context = rng.normal(size=(2, 384)).astype(np.float32)
        vectors.put(f"m{i}", text / np.linalg.norm(text), context / np.linalg.norm(context), (), "", 0)
    return vectors


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 120), st.integers(0, 2**32 - 1), st.data())
def test_a_memorys_score_does_not_depend_on_the_others_scored_with_it(n: int, seed: int, data: st.DataObject) -> None:
    # an owner with most of the game's memories is scored in one pass over the whole matrices, one with few by
    # copying its rows: a replay must give the same bits either way, and both the better of the two cosines
    vectors = _game(n, seed)
    topic = np.random.default_rng(seed + 1).normal(size=384).astype(np.float32)
    everyone = np.arange(n, dtype=np.intp)
    few = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=max(1, n // 3)))),
                   dtype=np.intp)
    whole, part = dense_scores(vectors, everyone, topic), dense_scores(vectors, few, topic)
    assert whole is not None and part is not None
    assert np.array_equal(whole[few], part)
    unit = topic / np.linalg.norm(topic)
    expected = np.maximum(vectors.texts[:n] @ unit, vectors.contexts[:n] @ unit)
    assert np.allclose(whole, expected, atol=1e-6)


def test_a_memory_stored_without_an_embedding_has_no_dense_score() -> None:
    vectors = _game(4, seed=3)
    scores = dense_scores(vectors, np.array([0, -1, 2], dtype=np.intp), np.ones(384, dtype=np.float32))
    assert scores is not None and np.isnan(scores[1]) and not np.isnan(scores[[0, 2]]).any()
    assert dense_scores(vectors, np.array([0], dtype=np.intp), None) is None


def test_a_recall_without_a_topic_never_zeroes_a_context_vector_another_recall_stored() -> None:
    # two recalls of one owner at once, one with a topic (it embeds the memory's keywords) and one without (it reads
    # no context vector): whichever stores the memory last, the one with the topic must score with the context
    # vector, or its dense scores differ from a fresh recall's (found by a helper with the thread order forced)
    vectors = _game(3, 7)
    text, context = vectors.texts[1].copy(), vectors.contexts[1].copy()
    vectors.put("m1", text, None, (), "", 0)  # same keywords: the context embedded for them stays
    assert np.array_equal(vectors.contexts[1], context) and vectors.n[1] == 0
    vectors.put("m1", text, None, (), "the library, Sarah", 1)  # other keywords: that context is no longer theirs
    assert not vectors.contexts[1].any() and vectors.n[1] == -1
