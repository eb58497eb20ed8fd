"""Joining the full-text hits to the candidates by node id (graphmem.recall.candidates)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from graphmem.recall.candidates import lexical_scores


@given(st.lists(st.integers(0, 60), unique=True), st.lists(st.integers(0, 80), unique=True),
       st.lists(st.floats(0.0, 20.0), min_size=80, max_size=80))
def test_each_candidate_gets_its_hit_score_and_other_hits_are_dropped(candidates: list[int], hits: list[int],
                                                                     scores: list[float]) -> None:
    ids = np.array(candidates, dtype=np.int64)
    by_id = dict(zip(hits, scores))
    joined = lexical_scores(ids, hits, scores[:len(hits)])
    assert joined.dtype == np.float64 and joined.shape == (len(candidates),)
    assert joined.tolist() == [by_id.get(i, 0.0) for i in candidates]
