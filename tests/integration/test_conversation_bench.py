"""bench/bench_conversation.py --recall: it waits for the database to settle and reports CPU per recall beside the
wall times (a small owner, so that it runs in seconds)."""

from __future__ import annotations

import math
import os

import neo4j
import pytest

from bench.bench_conversation import CELLS, IDLE_CORES, local_pids, run_recall, settle
from graphmem.embedding import Embedder
from graphmem.model import default_parameters

pytestmark = pytest.mark.neo4j


def test_local_pids_find_the_local_neo4j_and_nothing_elsewhere(neo4j_uri: str) -> None:
    assert local_pids("bolt://neo4j.example.org:7687") == []
    if os.environ.get("NEO4J_URI"):
        pytest.skip("the session's Neo4j was given by NEO4J_URI: it may run on another machine")
    pids = local_pids(neo4j_uri)
    assert pids and os.getpid() not in pids
    assert all(os.path.exists(f"/proc/{pid}") for pid in pids)


def test_settle_waits_for_indexes_the_full_text_refresh_and_an_idle_neo4j(driver: neo4j.Driver, neo4j_uri: str,
                                                                         schema: object) -> None:
    waited = settle(driver, None, local_pids(neo4j_uri), timeout=30.0)
    assert waited["indexes_s"] >= 0.0 and waited["fulltext_s"] >= 0.0
    if not local_pids(neo4j_uri):
        assert math.isnan(waited["idle_cores"])
    elif waited["settled"]:  # other tests may keep a shared Neo4j busy past the timeout: then it says so
        assert waited["idle_cores"] < IDLE_CORES and waited["idle_s"] >= 3.0
    else:
        assert waited["idle_cores"] >= IDLE_CORES and waited["idle_s"] >= 30.0


def test_recall_rows_give_each_cell_its_cpu_per_recall(driver: neo4j.Driver, embedder: Embedder,
                                                        schema: object) -> None:
    (row,) = run_recall(driver, None, default_parameters(), embedder, owners=(60,), profiles=(None,), calls=6,
                        warm_up=False)
    for cell in CELLS:
        assert row[f"{cell}_cpu_ms"] > 0.0  # the model embeds each topic in this process
        assert f"{cell}_neo4j_cpu_ms" not in row  # no pids given: Neo4j's CPU is not read
    assert row["settled"]["settled"] == 1.0 and math.isnan(row["settled"]["idle_cores"])
    assert 0.0 < row["median_ms"] <= row["p95_ms"] and row["writing_median_ms"] > 0.0
    left = driver.execute_query("MATCH (g:Game) WHERE g.uid STARTS WITH 'bench-talk-recall-60-' RETURN count(g) AS n")
    assert left.records[0]["n"] == 0
