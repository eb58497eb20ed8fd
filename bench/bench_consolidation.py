"""Benchmark of the consolidation job (docs/jobs.md#consolidation): one owner with N memories, clustered and summarised.

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

:func:`compare_clustering`, without the database, times the clustering alone on the same embeddings three ways
(:data:`CLUSTERINGS`): graphmem's (scikit-learn's ``AgglomerativeClustering``), the hand-written clustering graphmem
used before (issue 11 keeps scikit-learn only while it is at most 3x slower than that at 10,000 memories) and
scipy's ``linkage`` + ``fcluster``, each run in a fresh process so that its peak resident set is its own.

The queries here are benchmark scaffolding, not part of graphmem, so they are inline rather than under
``cypher/``. Run directly against a Neo4j: ``python -m bench.bench_consolidation bolt://127.0.0.1:7687 1000 10000``;
the clustering alone: ``python -m bench.bench_consolidation --clustering 1000 5000 10000`` (about 3 minutes).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
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


def _partition(labels: Sequence[int], min_size: int) -> list[list[int]]:
    groups: dict[int, list[int]] = {}
    for i, label in enumerate(labels):
        groups.setdefault(int(label), []).append(i)
    return sorted((g for g in groups.values() if len(g) >= min_size), key=lambda g: g[0])


def _graphmem(x: np.ndarray, threshold: float, min_size: int) -> list[list[int]]:
    return clusters(x, threshold, min_size)


def _hand_written(x: np.ndarray, threshold: float, min_size: int) -> list[list[int]]:
    """graphmem's clustering until commit af09c52 (``graphmem/jobs/clustering.py`` there, verbatim but for names),
    kept as the reference that scikit-learn's must stay within 3x of (issue 11): the condensed cosine distances
    from a blocked float32 matrix product, filled in place (scipy's ``pdist`` is one core and float64), then
    scipy's average linkage, cut below the threshold."""
    from scipy.cluster.hierarchy import linkage

    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0
    unit = (x / norms).astype(np.float32)
    n = len(unit)
    condensed = np.empty(n * (n - 1) // 2, dtype=np.float64)
    pos = 0
    for start in range(0, n, 512):
        stop = min(n, start + 512)
        sims = unit[start:stop] @ unit[start:].T
        for r in range(stop - start):
            row = sims[r, r + 1:]
            condensed[pos:pos + len(row)] = row
            pos += len(row)
        del sims
    del unit, norms
    np.subtract(1.0, condensed, out=condensed)
    np.clip(condensed, 0.0, 2.0, out=condensed)
    members: dict[int, list[int]] = {i: [i] for i in range(n)}
    for k, (a, b, height, _) in enumerate(linkage(condensed, method="average")):
        if height >= threshold:  # heights never decrease with average linkage: later merges are higher
            break
        members[n + k] = members.pop(int(a)) + members.pop(int(b))
    return sorted((sorted(g) for g in members.values() if len(g) >= min_size), key=lambda g: g[0])


def _scipy(x: np.ndarray, threshold: float, min_size: int) -> list[list[int]]:
    from scipy.cluster.hierarchy import fcluster, linkage

    # fcluster keeps merges at distance <= t, AgglomerativeClustering those < t: cut just below the threshold
    tree = linkage(x, method="average", metric="cosine")
    labels = fcluster(tree, np.nextafter(threshold, 0.0), criterion="distance")
    groups: dict[int, list[int]] = {}
    for i, label in enumerate(labels):
        groups.setdefault(int(label), []).append(i)
    return sorted((g for g in groups.values() if len(g) >= min_size), key=lambda g: g[0])


REFERENCE = "hand-written"
CLUSTERINGS: dict[str, Callable[[np.ndarray, float, int], list[list[int]]]] = {
    "graphmem": _graphmem, REFERENCE: _hand_written, "scipy": _scipy}
"""The clusterings compared by :func:`compare_clustering`: graphmem's ``clusters`` (what consolidation runs:
scikit-learn's ``AgglomerativeClustering(metric="cosine", linkage="average", distance_threshold=t,
n_clusters=None)``), the hand-written clustering it replaced, and the scipy routine scikit-learn wraps
(``linkage(X, "average", metric="cosine")`` cut by ``fcluster``: what is left once scikit-learn's checks go)."""


def _resident_mb(field: str) -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0  # kB
    raise OSError(f"no {field} in /proc/self/status")


def cluster_once(method: str, size: int) -> dict[str, Any]:
    """One clustering of :func:`embeddings` (``size`` rows, float64 as consolidation reads them) by ``method``.

    Meant to run alone in a fresh process (``--one METHOD SIZE``), so that its peak resident set is its own.
    Returns method, size, seconds (wall clock of the call), peak_mb (growth of the resident set's high-water mark
    above the resident set before the call, MB: numpy, scipy's and scikit-learn's C buffers alike; Linux resets
    the mark through ``/proc/self/clear_refs``), clusters, members (rows in a returned cluster) and partition
    (the first 16 hex digits of the SHA-1 of the partition: equal digests, equal clusters).
    """
    cfg = default_parameters().consolidation
    x = embeddings(size)
    CLUSTERINGS[method](embeddings(20), cfg.distance_threshold, 2)  # lazy imports and first calls out of the timing
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")  # reset VmHWM to the current resident set
        before = _resident_mb("VmRSS")
        started = time.perf_counter()
        found = CLUSTERINGS[method](x, cfg.distance_threshold, cfg.min_cluster_size)
        seconds = time.perf_counter() - started
        peak = _resident_mb("VmHWM") - before
    except OSError:  # not Linux: the growth of the process's peak instead (a lower bound)
        before = _maxrss_mb()
        started = time.perf_counter()
        found = CLUSTERINGS[method](x, cfg.distance_threshold, cfg.min_cluster_size)
        seconds = time.perf_counter() - started
        peak = _maxrss_mb() - before
    digest = hashlib.sha1(json.dumps(found).encode("ascii")).hexdigest()[:16]
    return {"method": method, "size": size, "seconds": seconds, "peak_mb": peak, "clusters": len(found),
            "members": sum(len(g) for g in found), "partition": digest}


def compare_clustering(sizes: Sequence[int] = (1_000, 5_000, 10_000), rounds: int = 3) -> list[dict[str, Any]]:
    """Time graphmem's clustering against the hand-written one it replaced and scipy's, on the same embeddings
    (no database).

    For each round, size (increasing) and method of :data:`CLUSTERINGS`, one :func:`cluster_once` in a fresh
    process, the methods interleaved so that a busy machine slows them alike.

    Returns one dict per size and method: size, method, seconds (median over the rounds), seconds_min,
    seconds_max, peak_mb (the largest over the rounds), clusters, members, partition (the digest; the same in
    every round) and slowdown (median seconds / the hand-written reference's median seconds at that size: issue 11
    keeps scikit-learn while graphmem's is at most 3 at 10,000).
    Raises RuntimeError when a method's clusters differ from graphmem's or between rounds.
    """
    root = Path(__file__).resolve().parents[1]
    runs: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for _ in range(rounds):
        for size in sorted(sizes):
            for method in CLUSTERINGS:
                out = subprocess.run([sys.executable, "-m", "bench.bench_consolidation", "--one", method, str(size)],
                                     cwd=root, capture_output=True, text=True, check=True).stdout
                row = json.loads(out.strip().splitlines()[-1])
                log.info("%s", row)
                runs.setdefault((size, method), []).append(row)
    rows: list[dict[str, Any]] = []
    for size in sorted(sizes):
        base = statistics.median(r["seconds"] for r in runs[(size, REFERENCE)])
        for method in CLUSTERINGS:
            done = runs[(size, method)]
            digests = {r["partition"] for r in done} | {r["partition"] for r in runs[(size, "graphmem")]}
            if len(digests) != 1:
                raise RuntimeError(f"{method} at {size}: clusters differ from graphmem's ({sorted(digests)})")
            seconds = [r["seconds"] for r in done]
            rows.append({"size": size, "method": method, "seconds": statistics.median(seconds),
                         "seconds_min": min(seconds), "seconds_max": max(seconds),
                         "peak_mb": max(r["peak_mb"] for r in done), "clusters": done[0]["clusters"],
                         "members": done[0]["members"], "partition": done[0]["partition"],
                         "slowdown": statistics.median(seconds) / base})
    return rows


def main(argv: Sequence[str]) -> None:
    """``python -m bench.bench_consolidation [URI] [SIZE ...]``: the job against a Neo4j, one line per size;
    ``python -m bench.bench_consolidation --clustering [SIZE ...]``: the clustering comparison, no database."""
    from bench.run import bench_driver

    parser = argparse.ArgumentParser(prog="python -m bench.bench_consolidation", description=__doc__.splitlines()[0])
    parser.add_argument("--clustering", action="store_true",
                        help="compare graphmem's clustering with the hand-written one it replaced and scipy's (no Neo4j)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the clustering comparison (default 3)")
    parser.add_argument("--one", nargs=2, metavar=("METHOD", "SIZE"), help=argparse.SUPPRESS)
    parser.add_argument("args", nargs="*", help="[URI] SIZE ...")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    if args.one:
        print(json.dumps(cluster_once(args.one[0], int(args.one[1]))))
        return
    if args.clustering:
        sizes = [int(a) for a in args.args] or [1_000, 5_000, 10_000]
        for row in compare_clustering(sizes, args.rounds):
            print(f"{row['size']:>7,} memories, {row['method']:<12}: {row['seconds']:6.2f} s (median; "
                  f"{row['seconds_min']:.2f}-{row['seconds_max']:.2f}), {row['slowdown']:.2f}x the hand-written, "
                  f"peak +{row['peak_mb']:.0f} MB resident, {row['clusters']} clusters of {row['members']} memories")
        return
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    uri = args.args[0] if args.args else "bolt://127.0.0.1:7687"
    sizes = [int(a) for a in args.args[1:]] or [1_000, 10_000]
    with bench_driver(uri) as driver:
        for row in run(driver, None, sizes):
            print(f"{row['size']:>7,} memories: {row['seconds']:.2f} s (clustering {row['clustering_seconds']:.2f} s), "
                  f"clustering peak {row['peak_mb']:.0f} MB traced, job +{row['rss_growth_mb']:.0f} MB peak RSS, "
                  f"{row['summaries']} summaries of {row['members']} memories ({row['planted']} planted)")


if __name__ == "__main__":
    main(sys.argv[1:])
