"""Run every benchmark against one Neo4j and print one table (also written as JSON).

    python -m bench.run                      # starts a throw-away local Neo4j (or uses $NEO4J_URI)
    python -m bench.run --quick              # small sizes only, a minute or two (a smoke run)
    python -m bench.run --out results.json

Each figure is measured next to a raw-Neo4j reference in the same process and session, so the ratio holds on a
noisy machine ("speed" = reference seconds / graphmem seconds: 1.0 is as fast as the bare reference, 0.5 half as
fast). Growth is the exponent b of time ~ size^b between the smallest and largest size (1 = linear, 2 = quadratic).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import neo4j

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "traitors-llm" / "433y9yyp"


@dataclass(frozen=True)
class Sizes:
    """The sizes each benchmark runs at."""

    ingest: tuple[int, ...]
    decay: tuple[int, ...]
    recall: tuple[int, ...]
    consolidation: tuple[int, ...]
    recall_calls: int
    clustering_rounds: int
    service_calls: int
    conversation: tuple[tuple[int, int], ...]
    """(turns, sessions) of the long conversations ingested by stage"""
    owners: tuple[int, ...]
    """memories of the owners whose recall latency is measured (embedding included)"""


FULL = Sizes(ingest=(1_000, 10_000, 100_000), decay=(10_000, 100_000, 1_000_000),
             recall=(1_000, 10_000, 100_000), consolidation=(1_000, 5_000, 10_000), recall_calls=200,
             clustering_rounds=3, service_calls=480,
             conversation=((150, 7), (300, 15), (600, 30), (1_200, 60), (2_400, 120)), owners=(1_000, 10_000))
QUICK = Sizes(ingest=(500, 1_000, 2_000), decay=(1_000, 3_000, 10_000), recall=(500, 1_000, 2_000),
              consolidation=(300, 1_000, 2_000), recall_calls=40, clustering_rounds=1, service_calls=64,
              conversation=((150, 7), (300, 15), (600, 30)), owners=(300, 1_000))


@contextmanager
def neo4j_uri() -> Iterator[str]:
    """``$NEO4J_URI``, else a local Neo4j started for this run in a temporary home (stopped afterwards)."""
    if os.environ.get("NEO4J_URI"):
        yield os.environ["NEO4J_URI"]
        return
    from graphmem import local_neo4j

    with tempfile.TemporaryDirectory(prefix="graphmem-bench-") as home:
        state = local_neo4j.start(Path(home), port=0, timeout=300)
        try:
            yield state.uri
        finally:
            local_neo4j.stop(Path(home))


def bench_driver(uri: str) -> neo4j.Driver:
    """A driver for a benchmark's Neo4j (:func:`neo4j_uri`) with ``$NEO4J_USER`` and ``$NEO4J_PASSWORD`` (default
    neo4j and graphmem, the local Neo4j's), configured as graphmem's own drivers are
    (:func:`graphmem.store.connection.new_driver`: on a fresh database the queries' "property key does not exist"
    notifications filled stderr). The caller closes it."""
    from graphmem.store.connection import new_driver

    return new_driver(uri, (os.environ.get("NEO4J_USER") or "neo4j", os.environ.get("NEO4J_PASSWORD") or "graphmem"))


def growth(rows: list[dict[str, Any]], size_key: str, time_key: str) -> float | None:
    """The exponent b of time ~ size^b between the first and the last row."""
    first, last = rows[0], rows[-1]
    if first[size_key] == last[size_key] or not first[time_key] or not last[time_key]:
        return None
    return round(math.log(last[time_key] / first[time_key]) / math.log(last[size_key] / first[size_key]), 2)


def _timed(name: str, step: Callable[[], Any], log: list[str]) -> Any:
    started = time.perf_counter()
    print(f"[bench] {name} ...", file=sys.stderr, flush=True)
    result = step()
    log.append(f"{name}: {time.perf_counter() - started:.0f} s")
    print(f"[bench] {name} done in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return result


def run_all(uri: str, sizes: Sizes) -> dict[str, Any]:
    """Every benchmark; returns {machine, results, summary}."""
    from bench import bench_consolidation, bench_conversation, bench_decay, bench_ingest, bench_recall, bench_service
    from graphmem.embedding import Embedder
    from graphmem.model import default_parameters
    from graphmem.store.schema import ensure_schema

    params = default_parameters()
    steps: list[str] = []
    driver = bench_driver(uri)
    database = os.environ.get("NEO4J_DATABASE") or None
    try:
        ensure_schema(driver, database, 384)
        embedder = Embedder()
        results = {
            "ingest_writes": _timed("ingest (writes)", lambda: bench_ingest.run_writes(
                driver, database, params, sizes.ingest), steps),
            "ingest_embedding": _timed("ingest (embedding)", lambda: bench_ingest.run_embedding(
                driver, database, params, GAME), steps),
            "decay": _timed("decay", lambda: bench_decay.run(driver, database, sizes.decay), steps),
            "recall": _timed("recall", lambda: bench_recall.run(
                driver, database, sizes.recall, calls=sizes.recall_calls, embedder=embedder), steps),
            "consolidation": _timed("consolidation", lambda: bench_consolidation.run(
                driver, database, sizes.consolidation), steps),
            "clustering": _timed("clustering (graphmem, hand-written, scipy)", lambda: bench_consolidation.
                                 compare_clustering(sizes.consolidation, sizes.clustering_rounds), steps),
            "service": _timed("service (HTTP, MCP, in-process; 40 real games)", lambda: bench_service.run(
                uri, calls=sizes.service_calls), steps),
            "conversation_ingest": _timed("long conversations, ingest by stage", lambda: bench_conversation.
                                          run_ingest(driver, database, params, embedder, sizes.conversation), steps),
            "owner_recall": _timed("recall for large owners, embedding included", lambda: bench_conversation.
                                   run_recall(driver, database, params, embedder, sizes.owners,
                                              calls=sizes.recall_calls,
                                              neo4j_pids=bench_conversation.local_pids(uri)), steps),
        }
    finally:
        driver.close()
    return {"machine": machine(), "results": results, "summary": summary(results), "steps": steps}


def summary(results: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per figure: what, size, graphmem, reference, speed (reference/graphmem), target, met, growth."""
    rows: list[dict[str, Any]] = []
    writes = results["ingest_writes"]
    for r in writes:
        rows.append({"figure": "ingest, embeddings precomputed", "size": r["memories"],
                     "graphmem": f"{r['memories_per_s']} memories/s", "reference": f"{r['reference_memories_per_s']}"
                     " memories/s (bare UNWIND CREATE)", "speed": r["ratio"], "target": ">= 0.5",
                     "met": r["ratio"] >= 0.5})
    rows[-1]["growth"] = growth(writes, "memories", "graphmem_s")
    e = results["ingest_embedding"]
    rows.append({"figure": "ingest with embedding (a real game)", "size": e["memories"],
                 "graphmem": f"{e['memories_per_s']} memories/s ({e['ingest_s']} s)",
                 "reference": f"model encode of the same {e['texts']} texts: {e['model_encode_s']} s",
                 "speed": e["ratio"], "target": "-", "met": None})
    decay = results["decay"]
    for r in decay:
        speed = round(r["reference_s"] / r["decay_s"], 3)
        rows.append({"figure": "decay, one phase", "size": r["size"], "graphmem": f"{r['decay_s']:.2f} s",
                     "reference": f"{r['reference_s']:.2f} s (bare SET of one property; "
                                  f"{r['reference_concurrent_s']:.2f} s in concurrent batches)", "speed": speed,
                     "target": ">= 0.5", "met": speed >= 0.5})
    rows[-1]["growth"] = growth(decay, "size", "decay_s")
    recall = results["recall"]
    for r in recall:
        rows.append({"figure": "recall p95 (median)", "size": r["memories"],
                     "graphmem": f"{r['recall_p95_ms']:.1f} ms ({r['recall_median_ms']:.1f} ms)",
                     "reference": f"{r['reference_p95_ms']:.1f} ms ({r['reference_median_ms']:.1f} ms) bare vector "
                                  "top-k", "speed": round(r["reference_p95_ms"] / r["recall_p95_ms"], 3),
                     "target": "p95 <= 50 ms at 100k", "met": r["recall_p95_ms"] <= 50.0})
    rows[-1]["growth"] = growth(recall, "memories", "recall_median_ms")
    cons = results["consolidation"]
    for r in cons:
        rows.append({"figure": "consolidation, one owner", "size": r["size"],
                     "graphmem": f"{r['seconds']:.1f} s, peak {r['peak_mb']:.0f} MB clustering",
                     "reference": f"clustering alone {r['clustering_seconds']:.1f} s", "speed": None,
                     "target": "<= 30 s at 10k", "met": r["seconds"] <= 30.0})
    rows[-1]["growth"] = growth(cons, "size", "seconds")
    by_method: dict[str, list[dict[str, Any]]] = {}
    for r in results["clustering"]:
        by_method.setdefault(r["method"], []).append(r)
    for ours, hand, sp in zip(by_method["graphmem"], by_method["hand-written"], by_method["scipy"]):
        rows.append({"figure": "clustering alone (scikit-learn)", "size": ours["size"],
                     "graphmem": f"{ours['seconds']:.2f} s, peak +{ours['peak_mb']:.0f} MB",
                     "reference": f"hand-written {hand['seconds']:.2f} s, peak +{hand['peak_mb']:.0f} MB; "
                                  f"scipy linkage + fcluster {sp['seconds']:.2f} s",
                     "speed": round(1.0 / ours["slowdown"], 2), "target": ">= 0.33 at 10k",
                     "met": ours["slowdown"] <= 3.0})
    rows[-1]["growth"] = growth(by_method["graphmem"], "size", "seconds")
    talk = results["conversation_ingest"]
    for r in talk["rows"]:
        rows.append({"figure": f"ingest of a conversation ({r['phases']} sessions)", "size": r["turns"],
                     "graphmem": f"{r['seconds']:.1f} s: " + ", ".join(f"{k} {v:.2f}" for k, v in r["stages"].items()),
                     "reference": "-", "speed": None, "target": "-", "met": None})
    worst = max((v, k) for k, v in talk["growth"].items() if v is not None)
    rows.append({"figure": "ingest of a conversation: growth of each stage", "size": talk["rows"][-1]["turns"],
                 "graphmem": ", ".join(f"{k} {v}" for k, v in talk["growth"].items()), "reference": "-",
                 "speed": None, "target": "no stage quadratic (< 1.5)", "met": worst[0] < 1.5, "growth": worst[0]})
    for r in results["owner_recall"]:
        rows.append({"figure": f"recall p95 (median), one owner, {r['profile']}, embedding included",
                     "size": r["memories"], "graphmem": f"{r['p95_ms']:.1f} ms ({r['median_ms']:.1f} ms); "
                     f"{r['candidates']:.0f} candidates, first recall {r['cold_ms']:.0f} ms",
                     "reference": f"{r['cypher_dense_p95_ms']:.1f} ms ({r['cypher_dense_median_ms']:.1f} ms) cosine "
                                  "of every memory in Cypher", "speed": round(r["cypher_dense_p95_ms"] / r["p95_ms"], 2),
                     "target": "p95 <= 50 ms", "met": r["p95_ms"] <= 50.0})
    if "service" in results:
        from bench import bench_service

        rows.extend(bench_service.rows(results["service"]))
    return rows


def machine() -> dict[str, Any]:
    """Where the figures come from."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, check=False).stdout.strip()
    except OSError:
        commit = ""
    return {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "commit": commit,
            "python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
            "load_average": os.getloadavg()[0], "neo4j_heap": os.environ.get("GRAPHMEM_NEO4J_HEAP", "1g")}


def table(report: dict[str, Any]) -> str:
    """The summary as a Markdown table."""
    head = "| figure | size | graphmem | reference | speed vs reference | target | met | growth |"
    lines = [head, "|---|---:|---|---|---:|---|---|---:|"]
    for r in report["summary"]:
        met = "-" if r["met"] is None else ("yes" if r["met"] else "no")
        speed = "-" if r["speed"] is None else f"{r['speed']:.2f}"
        grow = r.get("growth")
        lines.append(f"| {r['figure']} | {r['size']:,} | {r['graphmem']} | {r['reference']} | {speed} | "
                     f"{r['target']} | {met} | {'' if grow is None else grow} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only (a smoke run)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "latest.json",
                        help="where to write the JSON report")
    args = parser.parse_args(argv)
    import logging

    logging.getLogger("neo4j").setLevel(logging.ERROR)  # the server's notifications are not results
    started = time.perf_counter()
    with neo4j_uri() as uri:
        report = run_all(uri, QUICK if args.quick else FULL)
    report["seconds"] = round(time.perf_counter() - started, 1)
    report["quick"] = args.quick
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(table(report))
    print(f"\n{report['seconds']:.0f} s in all; JSON written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
