"""The forgetting curve has one formula (docs/model.md#forgetting, graphmem.model.forgetting.retention) and copies
where Python cannot run it: in Cypher, where Neo4j computes strengths for a whole game at once (the decay job, a
recall's candidates, an analysis query), and in numpy over a recall's candidates (graphmem.recall.ranking). Cypher has
no functions of its own to share, so each query spells the curve out; these tests hold every copy to the one.

- Every ``CASE curve WHEN 'power' ...`` under cypher/ is the same expression (one template, its elapsed time and
  stability named as the query names them): a query that changed one copy fails here.
- That template, run by Neo4j, and the numpy copy give retention's values on both curves.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import neo4j
import numpy as np
import pytest

from graphmem.model.forgetting import CURVES, retention
from graphmem.recall.ranking import source_route

pytestmark = pytest.mark.neo4j

ROOT = Path(__file__).resolve().parents[2]
COPY = re.compile(r"CASE\s+(?P<curve>\S+)\s+WHEN\s+'power'\s+"
                  r"THEN\s+\(1\.0 \+ 3\.0 \* (?P<dt>.+?) / \((?P<s>.+?) \* log\(2\.0\)\)\) \^ \(-0\.5\)\s+"
                  r"ELSE\s+exp\(-(?P=dt) / (?P=s)\)\s+END")
TEMPLATE = "CASE $curve WHEN 'power' THEN (1.0 + 3.0 * $dt / ($s * log(2.0))) ^ (-0.5) ELSE exp(-$dt / $s) END"
GRID = [(dt, s) for dt in (0.0, 0.5, 1.0, 3.0, 12.0, 40.0) for s in (0.25, 1.0, 2.5, 7.0, 30.0)]


def test_every_cypher_copy_of_the_curve_is_the_one_template() -> None:
    copies: dict[str, int] = {}
    for path in sorted((ROOT / "cypher").rglob("*.cypher")):
        text = path.read_text(encoding="utf-8")
        spelled = text.count("WHEN 'power'")
        if spelled:
            assert len(COPY.findall(text)) == spelled, f"{path.relative_to(ROOT)}: a copy differs from the template"
            copies[str(path.relative_to(ROOT / "cypher"))] = spelled
    # the queries that compute strengths in Neo4j; a new one joins this list (and this test) on purpose
    assert copies == {"analysis/strength_by_profile.cypher": 1, "jobs/decay_memories.cypher": 2,
                      "recall/context.cypher": 2, "recall/earlier_context.cypher": 1}


@pytest.mark.parametrize("curve", CURVES)
def test_the_template_run_by_neo4j_is_retention(driver: neo4j.Driver, curve: str) -> None:
    rows = driver.execute_query(f"UNWIND $grid AS g WITH g[0] AS dt, g[1] AS s RETURN dt, s, "
                                f"{TEMPLATE.replace('$dt', 'dt').replace('$s', 's')} AS r",
                                grid=[list(g) for g in GRID], curve=curve).records
    assert len(rows) == len(GRID)
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
