"""bench/bench_consolidation.py runs (at a small size) and finds exactly the clusters it planted."""

from __future__ import annotations

import neo4j
import pytest

from bench.bench_consolidation import CLUSTER, run

pytestmark = pytest.mark.neo4j


def test_the_benchmark_finds_the_planted_clusters_and_cleans_up(driver: neo4j.Driver, schema: object) -> None:
    (row,) = run(driver, None, sizes=(500,))
    assert set(row) == {"size", "seconds", "clustering_seconds", "peak_mb", "rss_growth_mb", "summaries", "members",
                        "planted"}
    assert row["size"] == 500 and row["planted"] == 100
    assert (row["summaries"], row["members"]) == (row["planted"] // CLUSTER, row["planted"])
    assert 0 < row["clustering_seconds"] <= row["seconds"] < 60 and row["peak_mb"] > 0
    left = driver.execute_query("MATCH (n) WHERE n.game STARTS WITH 'bench-consolidation-' RETURN count(n) AS n")
    assert left.records[0]["n"] == 0
