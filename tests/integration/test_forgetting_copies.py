"""The forgetting curve has one formula (docs/model.md#forgetting) with one home per language: Python's
``graphmem.model.forgetting.retention``, Cypher's fragment ``cypher/fragments/retention.cypher`` (which the query
loader puts in every query that computes strengths in Neo4j: the decay job, a recall's candidates, an analysis query),
and the numpy copy over a recall's candidates (graphmem.recall.ranking). These tests hold them equal on values; that
no query spells the curve itself is tests/unit/store/test_queries.py's.
"""

from __future__ import annotations

import math

import neo4j
import numpy as np
import pytest

from graphmem.model.forgetting import CURVES, retention
from graphmem.recall.ranking import source_route
from graphmem.store.queries import expand, fragment

pytestmark = pytest.mark.neo4j

GRID = [(dt, s) for dt in (0.0, 0.5, 1.0, 3.0, 12.0, 40.0) for s in (0.25, 1.0, 2.5, 7.0, 30.0)]


@pytest.mark.parametrize("curve", CURVES)
def test_the_fragment_run_by_neo4j_is_retention(driver: neo4j.Driver, curve: str) -> None:
    # the fragment itself, with its $parameters, as a statement; and as a query uses it, through the loader
    alone = driver.execute_query(f"RETURN {fragment('retention').text} AS r", dt=12.0, s=7.0, curve=curve).records
    assert alone[0]["r"] == pytest.approx(retention(12.0, 7.0, curve), rel=1e-12)
    grid = GRID + [(40.0, math.inf), (0.0, math.inf)]
    rows = driver.execute_query(expand("test", "UNWIND $grid AS g WITH g[0] AS dt, g[1] AS s\n"
                                               "RETURN dt, s, @retention(dt, s, $curve) AS r"),
                                grid=[list(g) for g in grid], curve=curve).records
    assert len(rows) == len(grid)
    for row in rows:
        assert row["r"] == pytest.approx(retention(row["dt"], row["s"], curve), rel=1e-12), (curve, row["dt"], row["s"])


@pytest.mark.parametrize("curve", CURVES)
def test_the_numpy_copy_is_retention(curve: str) -> None:
    dt = np.array([g[0] for g in GRID])
    s = np.array([g[1] for g in GRID])
    n = len(GRID)
    # source_route is c0 * R(now - t_enc, s_enc)^k: with c0 = k = 1, kept, not own, it is R itself
    r = source_route(np.ones(n), np.ones(n), 40.0 - dt, s, np.ones(n, bool), np.zeros(n, bool), 40, curve, 0.0)
    assert r == pytest.approx([retention(a, b, curve) for a, b in GRID], rel=1e-12)
    never = source_route(np.ones(1), np.ones(1), np.zeros(1), np.array([math.inf]), np.ones(1, bool),
                         np.zeros(1, bool), 40, curve, 0.0)
    assert never[0] == 1.0 == retention(40.0, math.inf, curve)
