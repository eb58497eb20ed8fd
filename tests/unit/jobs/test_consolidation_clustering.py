"""Clustering for consolidation (docs/jobs.md#consolidation): average linkage over cosine distances (scikit-learn's
AgglomerativeClustering) finds the groups of similar memories, only them, and none smaller than asked."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.jobs.clustering import clusters, medoid


def planted(seed: int, n: int = 400, centres: int = 25, dim: int = 48, noise: float = 0.25) -> np.ndarray:
    """Unit vectors: most around a few random centres (spread ``noise``), the rest uniform."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, dim))
    c = rng.standard_normal((centres, dim))
    k = int(n * 0.8)
    x[:k] = c[rng.integers(0, centres, k)] + noise * rng.standard_normal((k, dim))
    unit: np.ndarray = (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)
    return unit


def planted_groups(seed: int, groups: int = 30, size: int = 5, loners: int = 150, dim: int = 64,
                   spread: float = 0.3) -> tuple[np.ndarray, list[list[int]]]:
    """``groups`` groups of ``size`` vectors close to their own random centre (cosine ~0.9 within a group: distance
    ~0.1) and ``loners`` random vectors (distance ~1 to everything), shuffled; returns the rows and the groups."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((groups, dim))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    noise = rng.standard_normal((groups * size, dim)) / np.sqrt(dim)
    x = np.vstack([np.repeat(centres, size, axis=0) + spread * noise, rng.standard_normal((loners, dim))])
    order = rng.permutation(len(x))
    place = np.argsort(order)  # row of x -> its row after shuffling
    truth = sorted((sorted(int(place[g * size + k]) for k in range(size)) for g in range(groups)), key=lambda g: g[0])
    return x[order], truth


@pytest.mark.parametrize("seed", range(4))
def test_the_planted_groups_are_found_exactly_and_the_loners_stay_alone(seed: int) -> None:
    x, truth = planted_groups(seed)
    assert clusters(x, 0.35, 3) == truth
    assert clusters(x * 7.5, 0.35, 3) == truth  # cosine: the length of a vector does not matter
    assert clusters(x, 0.35, 6) == []  # no group has six members


def test_average_linkage_merges_by_the_mean_distance_between_groups() -> None:
    # unit vectors a, b, c, d at 0, 40, 50 and 100 degrees; cosine distances 1 - cos(angle):
    # b-c 0.015, a-b 0.234, a-c 0.357, c-d 0.357, b-d 0.5, a-d 1.174
    angles = np.radians([0.0, 40.0, 50.0, 100.0])
    x = np.column_stack([np.cos(angles), np.sin(angles)])
    # b and c merge first (0.015); a joins them at the mean of a-b and a-c, 0.296 (complete linkage: 0.357);
    # d joins {a, b, c} at the mean of a-d, b-d and c-d, 0.677 (single linkage: 0.357)
    assert clusters(x, 0.29, 2) == [[1, 2]]
    assert clusters(x, 0.35, 2) == [[0, 1, 2]]
    assert clusters(x, 0.6, 2) == [[0, 1, 2]]
    assert clusters(x, 0.7, 2) == [[0, 1, 2, 3]]
    assert clusters(x, 0.35, 4) == []


@settings(max_examples=40)
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
    with pytest.raises(ValueError, match="shape"):
        clusters(np.ones(4), 0.35, 3)


def test_a_zero_vector_joins_no_cluster_and_changes_no_other() -> None:
    x, truth = planted_groups(1, groups=4, loners=10)
    with_zeros = np.insert(x, [0, 7], 0.0, axis=0)  # rows 0 and 8 of with_zeros
    shifted = [[i + 1 + (i >= 7) for i in group] for group in truth]
    assert clusters(with_zeros, 0.35, 3) == shifted
    assert clusters(np.zeros((3, 4)), 0.35, 2) == []
    assert clusters(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]]), 0.35, 1) == [[1]]


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
