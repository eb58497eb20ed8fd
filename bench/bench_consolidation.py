"""Benchmark of the consolidation job (SPEC 11): one owner with N memories, clustered and summarised.

:func:`run` writes one throw-away game with one player holding N synthetic memories (a bare ``UNWIND ... CREATE``
of the properties consolidation reads, in batches of 1,000 rows): random unit embeddings of 384 dimensions, a fifth
of them planted in clusters of 5 around random centres (cosine about 0.74 between members of a cluster, distance
about 0.26, under the 0.35 threshold; random pairs sit near distance 1). It then times one
:func:`graphmem.jobs.consolidation.consolidate` of that owner (read, clustering, plan, one write transaction) and
records the growth of the process's peak resident set size during it (``ru_maxrss``: Python, numpy, scipy's C
buffers and the driver alike; sizes run in increasing order so that each can raise it). Separately, without the
database, it measures the peak of the clustering alone with ``tracemalloc`` (numpy reports its buffers to it) on
the same embeddings: tracing the whole job would slow the driver's decoding several times over and distort the
timing. The game is deleted afterwards.

Agglomerative clustering needs the n (n - 1) / 2 pairwise distances: 0.5 million at 1,000 memories (4 MB),
50 million at 10,000 (400 MB as float64): time and memory grow as n^2.

The queries here are benchmark scaffolding, not part of graphmem, so they are inline rather than under
``cypher/``. Run directly against a Neo4j: ``python bench/bench_consolidation.py bolt://127.0.0.1:7687 1000 10000``.
"""

from __future__ import annotations

import logging
import resource
import sys
import time
import tracemalloc
import uuid
from collections.abc import Sequence
from typing import Any

import neo4j
import numpy as np

from graphmem.jobs.clustering import clusters
from graphmem.jobs.consolidation import consolidate
from graphmem.model import default_parameters
from graphmem.store.games import delete_game

log = logging.getLogger(__name__)

BATCH = 1_000
DIMENSION = 384
PLANTED = 0.2  # share of memories in planted clusters
CLUSTER = 5  # members per planted cluster
SPREAD = 0.6  # member = normalise(centre + SPREAD * random unit vector): cosine ~ 1 / (1 + SPREAD^2) = 0.74
OWNER = "Owner"

CREATE_GAME = """
CREATE (g:Game {uid: $game, game: $game, title: 'consolidation benchmark', format: 'graphmem/1',
                imported_from: 'graphmem', curve: 'exponential', last_phase: 30, decayed_to: 30, complete: true})
CREATE (g)-[:HAS_PLAYER]->(:Player {uid: $game + '/player/' + $owner, game: $game, name: $owner, role: 'faithful',
                                    profile: 'balanced', threshold: 0.18})
"""
CREATE_MEMORIES = """
UNWIND $rows AS r
CREATE (m:Memory {uid: r.uid, game: $game, owner: $owner, event: r.event, kind: 'say', type: 'episodic',
                  text: r.text, template: '{content}', details_json: r.details, day: r.day, t_enc: r.phase,
                  phase_name: 'social', strength: r.strength, s: r.s, source_type: 'direct_told', teller: 'Teller',
                  about: [], keywords: '', claims_json: '[]', embedding: r.embedding, salience: 0.3,
                  relevance: 0.5, emotion_peak: 0.2, surprise: 0.2, consequence: 0.3, threshold: 0.18,
                  decay_rate: 0.2, source_k: 1.67, flashbulb: false, state: 'active'})
"""
LINK = """
MATCH (p:Player {uid: $game + '/player/' + $owner})
MATCH (m:Memory {game: $game})
CALL (p, m) { CREATE (p)-[:REMEMBERS]->(m) } IN TRANSACTIONS OF 10000 ROWS
"""


def embeddings(size: int, seed: int = 0) -> np.ndarray:
    """``size`` unit vectors: PLANTED of them in clusters of CLUSTER around random centres, the rest random."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((size, DIMENSION))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    planted = int(size * PLANTED) // CLUSTER * CLUSTER
    centres = rng.standard_normal((planted // CLUSTER, DIMENSION))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    x[:planted] = np.repeat(centres, CLUSTER, axis=0) + SPREAD * x[:planted]
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x


def _write(driver: neo4j.Driver, database: str | None, game: str, size: int, vectors: np.ndarray) -> None:
    driver.execute_query(CREATE_GAME, game=game, owner=OWNER, database_=database)
    for start in range(0, size, BATCH):
        rows = []
        for i in range(start, min(size, start + BATCH)):
            text = f"synthetic memory {i}"
            rows.append({"uid": f"{game}/memory/{OWNER}/{i}", "event": str(i), "text": f'"{text}"',
                         "details": f'[{{"kind": "quote", "value": "{text}"}}]', "day": 1 + i % 10,
                         "phase": i % 30, "strength": 0.2 + 0.6 * ((i * 7919) % 101) / 100,
                         "s": 2.0 + (i % 17), "embedding": vectors[i].tolist()})
        driver.execute_query(CREATE_MEMORIES, rows=rows, game=game, owner=OWNER, database_=database)
    with driver.session(database=database) as session:
        session.run(LINK, game=game, owner=OWNER).consume()


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # kilobytes on Linux


def run(driver: neo4j.Driver, database: str | None,
        sizes: Sequence[int] = (1_000, 10_000)) -> list[dict[str, Any]]:
    """Time one consolidation of one owner holding N memories, for each size (in increasing order).

    driver, database : where to write (a throw-away game per size, deleted afterwards, also on failure)
    sizes : numbers of memories of the one owner

    Returns one dict per size: size (int), seconds (float, the whole ``consolidate``: read, cluster, plan, write),
    clustering_seconds (float, of which clustering), peak_mb (float, the clustering's peak traced by
    ``tracemalloc``, MB), rss_growth_mb (float, growth of the process's peak resident set during the job, MB),
    summaries (int), members (int, memories consolidated), planted (int, memories in planted clusters).
    """
    params = default_parameters()
    cfg = params.consolidation
    rows: list[dict[str, Any]] = []
    for size in sorted(sizes):
        game = f"bench-consolidation-{uuid.uuid4().hex[:8]}"
        vectors = embeddings(size)
        try:
            t0 = time.perf_counter()
            _write(driver, database, game, size, vectors)
            log.info("wrote %d memories in %.1f s", size, time.perf_counter() - t0)
            rss_before = _maxrss_mb()
            report = consolidate(driver, database, game, params, player=OWNER)
            rss_growth = _maxrss_mb() - rss_before
        finally:
            delete_game(driver, database, game)
        tracemalloc.start()
        try:
            clusters(vectors.astype(np.float32), cfg.distance_threshold, cfg.min_cluster_size)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        row = {"size": size, "seconds": report.seconds, "clustering_seconds": report.clustering_seconds,
               "peak_mb": peak / 1e6, "rss_growth_mb": rss_growth, "summaries": report.summaries,
               "members": report.members, "planted": int(size * PLANTED) // CLUSTER * CLUSTER}
        log.info("%s", row)
        rows.append(row)
    return rows


def main(argv: Sequence[str]) -> None:
    """``python bench/bench_consolidation.py URI [SIZE ...]``: print one line per size."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    uri = argv[0] if argv else "bolt://127.0.0.1:7687"
    sizes = [int(a) for a in argv[1:]] or [1_000, 10_000]
    with neo4j.GraphDatabase.driver(uri, auth=("neo4j", "graphmem")) as driver:
        for row in run(driver, None, sizes):
            print(f"{row['size']:>7,} memories: {row['seconds']:.2f} s (clustering {row['clustering_seconds']:.2f} s), "
                  f"clustering peak {row['peak_mb']:.0f} MB traced, job +{row['rss_growth_mb']:.0f} MB peak RSS, "
                  f"{row['summaries']} summaries of {row['members']} memories ({row['planted']} planted)")


if __name__ == "__main__":
    main(sys.argv[1:])
