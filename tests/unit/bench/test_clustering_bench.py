"""bench/bench_consolidation.py's clustering comparison: every method, in its own process, finds the planted
clusters, and the slowdown compares graphmem's time with the hand-written reference's."""

from __future__ import annotations

import pytest

from bench.bench_consolidation import CLUSTER, CLUSTERINGS, PLANTED, REFERENCE, compare_clustering

pytestmark = pytest.mark.slow  # three fresh processes importing scikit-learn: about 7 s


def test_every_clustering_finds_the_planted_clusters_in_its_own_process() -> None:
    rows = compare_clustering(sizes=(300,), rounds=1)
    assert [r["method"] for r in rows] == list(CLUSTERINGS)
    planted = int(300 * PLANTED) // CLUSTER * CLUSTER
    for row in rows:
        assert (row["size"], row["clusters"], row["members"]) == (300, planted // CLUSTER, planted)
        assert row["seconds"] > 0 and row["peak_mb"] >= 0 and row["seconds_min"] <= row["seconds"]
    assert len({r["partition"] for r in rows}) == 1
    by_method = {r["method"]: r for r in rows}
    assert by_method[REFERENCE]["slowdown"] == 1.0
    assert by_method["graphmem"]["slowdown"] == by_method["graphmem"]["seconds"] / by_method[REFERENCE]["seconds"]
