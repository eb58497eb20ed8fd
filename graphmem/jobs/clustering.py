"""Clustering one owner's memory embeddings for consolidation (docs/jobs.md#consolidation). Pure: numpy and
scikit-learn, no I/O.

:func:`clusters` is scikit-learn's
``AgglomerativeClustering(metric="cosine", linkage="average", distance_threshold=t, n_clusters=None)``: average
linkage over cosine distances, every merge below ``t`` kept (scikit-learn builds the tree with
``scipy.cluster.hierarchy.linkage(X, method="average", metric="cosine")``). graphmem used to compute the same
partitions by hand (the distances by a blocked float32 matrix product, then scipy's linkage; kept as the
benchmark's reference in ``bench/bench_consolidation.py``). It was faster, but not by enough to keep:
``python -m bench.bench_consolidation --clustering 1000 5000 10000`` (2 shared cores, load average 2-3, median
of 3 interleaved rounds, each in a fresh process, the same embeddings, equal partitions) measured

======  ==================  ===========================  ==========
n       hand-written        AgglomerativeClustering      slowdown
======  ==================  ===========================  ==========
1,000   0.03 s, +7 MB       0.09 s, +8 MB                2.65x
5,000   1.01 s, +189 MB     2.33 s, +203 MB              2.32x
10,000  4.08 s, +736 MB     10.35 s, +763 MB             2.54x
======  ==================  ===========================  ==========

(peak growth of the resident set; three later runs on a busier machine: 2.60x, 2.05x, 2.46x at 10,000). Issue 11
keeps scikit-learn unless it is over 3x slower at 10,000. The extra time is scipy's ``pdist`` (one core, float64)
against a BLAS matrix product. On the 40 real games (765 groups of 3 to 21 memories) the clustering takes 0.23 s
in all instead of 0.05 s (scikit-learn's input checks), against 6-9 s for the dry-run job, and gives the same 642
summaries. Memory is O(n^2) either way: the condensed distances are ``n (n - 1) / 2`` float64 (400 MB at 10,000
memories of one owner) and scipy's linkage works on a copy, which is why the job runs per owner.
``bench/README.md`` has the latest figures.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["clusters", "medoid"]


def _rows(embeddings: npt.ArrayLike) -> npt.NDArray[np.float64]:
    x = np.asarray(embeddings, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError(f"embeddings must have shape (n_samples, n_features), got {x.shape}")
    return x


def clusters(embeddings: npt.ArrayLike, distance_threshold: float, min_size: int) -> list[list[int]]:
    """Average-linkage clusters of cosine distance below ``distance_threshold`` with at least ``min_size`` members.

    embeddings : array of shape (n_samples, n_features), need not be normalised
    distance_threshold : float in (0, 2], the cosine distance ``1 - cos(u, v)`` at which clusters stop merging
        (0.35: similarity >= 0.65 on average between the members of two merged groups)
    min_size : int >= 1, the smallest cluster returned
    Returns lists of row indices, each sorted, the lists ordered by their first index: the clusters of
    ``AgglomerativeClustering(metric="cosine", linkage="average", distance_threshold=distance_threshold,
    n_clusters=None).fit(embeddings).labels_`` with ``min_size`` or more members. A zero row (no direction, no
    cosine) joins no cluster; the others are clustered as if it were absent. Memory O(n^2) (module docstring).
    Raises ValueError when embeddings is not two-dimensional.
    """
    from sklearn.cluster import AgglomerativeClustering  # imported here: ~1 s that only consolidation should pay

    x = _rows(embeddings)
    rows = np.flatnonzero(np.any(x != 0.0, axis=1))
    if len(rows) < 2:
        return [[int(i)] for i in rows] if min_size <= 1 else []
    model = AgglomerativeClustering(metric="cosine", linkage="average", distance_threshold=distance_threshold,
                                    n_clusters=None)
    labels = model.fit(x[rows]).labels_
    members: dict[int, list[int]] = {}
    for row, label in zip(rows, labels):
        members.setdefault(int(label), []).append(int(row))
    found = [group for group in members.values() if len(group) >= min_size]
    return sorted(found, key=lambda group: group[0])


def medoid(embeddings: npt.ArrayLike, keys: Sequence[str] | None = None) -> int:
    """Index of the member with the smallest summed cosine distance to the others (ties: the smallest key,
    else the smallest index).

    embeddings : array of shape (n_samples, n_features), n_samples >= 1 (a zero row is at distance 1 from all)
    keys : optional tie-breakers, one per row (memory uids: the choice is then independent of row order)
    Raises ValueError for no rows. Plain numpy: scikit-learn's ``cosine_distances`` picks the same members, but
    its input checks made the 1,926 medoids of a dry run over the 40 real games take 0.53 s instead of 0.03 s.
    """
    x = _rows(embeddings)
    if len(x) == 0:
        raise ValueError("medoid of no members")
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0  # a zero vector stays zero: cosine distance 1 to everything
    unit = x / norms
    totals = (1.0 - unit @ unit.T).sum(axis=1)
    best = float(totals.min())
    tied = [i for i, total in enumerate(totals) if total - best <= 1e-9]
    if keys is not None:
        return min(tied, key=lambda i: keys[i])
    return tied[0]
