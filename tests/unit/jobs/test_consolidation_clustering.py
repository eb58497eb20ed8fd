"""Clustering for consolidation (SPEC 11): the same partitions as scikit-learn's AgglomerativeClustering with
cosine distance and average linkage, computed with less time and memory."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import pdist
from sklearn.cluster import AgglomerativeClustering

from graphmem.jobs.clustering import clusters, cosine_condensed, medoid


def planted(seed: int, n: int = 400, centres: int = 25, dim: int = 48, noise: float = 0.25) -> np.ndarray:
    """Unit vectors: most around a few random centres (spread ``noise``), the rest uniform."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, dim))
    c = rng.standard_normal((centres, dim))
    k = int(n * 0.8)
    x[:k] = c[rng.integers(0, centres, k)] + noise * rng.standard_normal((k, dim))
    unit: np.ndarray = (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)
    return unit


def sklearn_partition(x: np.ndarray, threshold: float, min_size: int) -> list[list[int]]:
    labels = AgglomerativeClustering(metric="cosine", linkage="average", distance_threshold=threshold,
                                     n_clusters=None).fit(x).labels_
    groups: dict[int, list[int]] = {}
    for i, label in enumerate(labels):
        groups.setdefault(int(label), []).append(i)
    return sorted((g for g in groups.values() if len(g) >= min_size), key=lambda g: g[0])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("threshold", [0.2, 0.35, 0.6])
def test_partitions_equal_scikit_learns(seed: int, threshold: float) -> None:
    x = planted(seed, noise=0.15 + 0.05 * seed)
    ours = clusters(x, threshold, 3)
    assert ours == sklearn_partition(x, threshold, 3)
    assert ours, "the planted clusters must be found"


def test_condensed_distances_equal_scipys_pdist() -> None:
    x = planted(7, n=120)
    assert np.allclose(cosine_condensed(x), pdist(x.astype(np.float64), "cosine"), atol=1e-6)
    assert cosine_condensed(x).dtype == np.float64


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 40), st.floats(0.05, 1.2), st.integers(1, 5))
def test_every_cluster_is_tight_and_large_enough(seed: int, n: int, threshold: float, min_size: int) -> None:
    x = planted(seed, n=n, centres=3, dim=8)
    found = clusters(x, threshold, min_size)
    seen = [i for group in found for i in group]
    assert len(seen) == len(set(seen)) and all(0 <= i < n for i in seen)  # disjoint row indices
    for group in found:
        assert len(group) >= min_size and group == sorted(group)
        # average linkage: the average distance inside a merged group is below the threshold
        d = 1.0 - x[group] @ x[group].T
        assert d[np.triu_indices(len(group), 1)].mean() < threshold + 1e-6 if len(group) > 1 else True


def test_small_inputs() -> None:
    assert clusters(np.zeros((0, 4)), 0.35, 3) == []
    assert clusters(np.ones((1, 4)), 0.35, 3) == []
    same = np.tile(np.array([[1.0, 0.0, 0.0]]), (3, 1))
    assert clusters(same, 0.35, 3) == [[0, 1, 2]]
    assert clusters(same, 0.35, 4) == []
    opposite = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]])
    assert clusters(opposite, 0.35, 2) == []


def test_medoid_is_the_most_central_member_and_ignores_row_order() -> None:
    x = np.array([[1.0, 0.0], [0.9, 0.1], [0.8, 0.2], [0.0, 1.0]])
    assert medoid(x) in (1, 2)
    keys = ["d", "c", "b", "a"]
    picked = medoid(x, keys)
    order = [3, 2, 1, 0]
    assert keys[order[medoid(x[order], [keys[i] for i in order])]] == keys[picked]
    twins = np.array([[1.0, 0.0], [1.0, 0.0]])
    assert medoid(twins, ["z", "a"]) == 1  # ties go to the smallest key
    with pytest.raises(ValueError):
        medoid(np.zeros((0, 2)))
