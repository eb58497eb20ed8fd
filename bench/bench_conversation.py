"""Long conversations: ingest time by stage, and recall latency for owners of thousands of memories.

Two figures, on two-person conversations from :mod:`bench.conversation` (each turn a private statement, so each
speaker remembers every turn: N turns make two owners of N memories each):

- **ingest by stage** (:func:`run_ingest`): the whole ingest of one conversation through
  :meth:`graphmem.service.MemoryService.ingest`, at several lengths with the same number of turns per session
  (600 turns over 30 sessions is the size the issue names), timed by the job's own stages (``IngestSummary.stages``:
  validate, encode, embed, link, write, decay). The embedding model is loaded before and its text cache emptied
  before each game, so ``embed`` is the model's work. ``growth`` is the exponent b of time ~ turns^b of each stage
  between the shortest and the longest conversation (1 = linear, 2 = quadratic).
- **recall latency** (:func:`run_recall`): an owner of 1,000 and of 10,000 memories (a conversation of that many turns
  over turns/20 sessions, decayed to its end), ``calls`` recalls in-process through one
  :class:`graphmem.recall.vectors.EmbeddingCache` and one :class:`graphmem.store.reader.MemoryReader`, as
  :class:`graphmem.MemoryService` keeps them, **the topic
  embedding included** (every call asks about a different topic, so the model runs each time); dry runs, so every call
  sees the same memories. The first recall of each owner (the cache empty: every candidate's embedding read) is
  reported apart. Nothing is written between these recalls, so each after the first uses the candidates the process
  holds (an agent asking several questions in a turn); ``other`` times ``calls / 2`` more recalls, each after a
  writing recall of the same owner by another process (another reader, untimed), which logs the memories it
  changed: each reads those again (:mod:`graphmem.store.versions`, the change log); ``reread`` times
  ``calls / 2`` recalls each after the owner's memory version was raised without saying what changed (untimed), as
  after a job or a file ingest: every one reads all its candidates again; ``writing`` times ``calls / 2`` writing
  recalls after those (the two owners in turn), each of which brings what the process holds up to date with its own
  write, as an agent's recall in a game does. For each profile asked (the default, whose old memories are forgotten,
  and ``perfect``, which forgets nothing, the worst case: every memory a candidate). References in the same session: a
  bare vector-index top-10 (``db.index.vector.queryNodes``) and the cosine of the topic with every memory of the owner
  computed in Cypher, which is what recall did before it kept embeddings (its dense half alone). The first owner is
timed twice: the figures are the second round's, and the first round's (Neo4j compiling its code as it meets it) are
printed apart (``--no-warm-up``: time the first round only). Before any owner is timed, the database settles
(:func:`settle`: indexes online, the full-text index refreshed, a local Neo4j's CPU idle), and each cell also gives
the CPU time per recall of this process and of a local Neo4j, from /proc, the figure that does not move with the
machine's load.

Run: ``python -m bench.bench_conversation URI`` (both), ``... URI --ingest`` or ``... URI --recall``.
"""

from __future__ import annotations

import logging
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import neo4j

from bench.bench_recall import _embed, _stats
from bench.conversation import conversation, statement
from bench.cpu import TaskClock, cpu_seconds, descendants, listening_pid
from graphmem.embedding import Embedder
from graphmem.importers import load_game_log
from graphmem.ingest.encode import encode_game
from graphmem.jobs.decay import advance
from graphmem.logs.writer import dumps_line
from graphmem.model import Parameters, default_parameters
from graphmem.recall import EmbeddingCache, RecallResult, recall
from graphmem.service import MemoryService
from graphmem.store.games import delete_game
from graphmem.store.reader import MemoryReader
from graphmem.store.schema import ensure_schema
from graphmem.store.versions import raise_memory_versions
from graphmem.store.writer import mark_complete, write_game_rows

log = logging.getLogger(__name__)

STAGES = ("validate", "encode", "embed", "link", "write", "decay")
INGEST_SIZES = ((150, 7), (300, 15), (600, 30), (1200, 60), (2400, 120))
"""(turns, sessions): 20 turns a session; 600 over 30 is the issue's size."""
CYPHER_DENSE = ("MATCH (m:Memory {game: $game, owner: $owner}) "
                "RETURN max(vector.similarity.cosine($v, m.embedding)) AS best, count(*) AS n")
"""The reference: the topic's cosine with every memory of the owner, in Cypher (recall's dense half before)."""
VECTOR_TOP_K = ("CALL db.index.vector.queryNodes('memory_embedding', 10, $v) YIELD node, score "
                "RETURN node.uid AS uid, score")
IDLE_CORES = 0.05
"""Neo4j counts as settled once its threads use less than this share of one core (50 ms of CPU a second) for
:data:`IDLE_WINDOWS` windows of a second in a row; idle, the local Neo4j uses 0.005-0.01."""
IDLE_WINDOWS = 3
SETTLE_TIMEOUT = 600.0
"""Seconds :func:`settle` waits at most for each of its steps."""


def local_pids(uri: str) -> list[int]:
    """The process (and its children) serving ``uri`` when that is a Neo4j on this machine (its Bolt port listened
    on by a process this user can see, :func:`bench.cpu.listening_pid`), else []: whose CPU :func:`settle` and the
    CPU figures of :func:`run_recall` read from /proc."""
    from urllib.parse import urlparse

    parsed = urlparse(uri)
    if parsed.hostname not in ("127.0.0.1", "localhost", "::1") or parsed.port is None:
        return []
    pid = listening_pid(parsed.port)
    return [] if pid is None else descendants(pid)


def settle(driver: neo4j.Driver, database: str | None, pids: Sequence[int] = (),
           timeout: float = SETTLE_TIMEOUT) -> dict[str, float]:
    """Wait for the background work a freshly written (or deleted) game leaves to Neo4j, so that it is not timed as
    recall: every index online (``db.awaitIndexes``: a new index populates in the background), the eventually
    consistent full-text index ``memory_text`` refreshed (``db.index.fulltext.awaitEventuallyConsistentIndexRefresh``:
    its updates are applied on a thread of their own after the commit), then, when ``pids`` names the Neo4j
    process (:func:`local_pids`), its CPU below :data:`IDLE_CORES` for :data:`IDLE_WINDOWS` seconds in a row (what
    the two calls do not cover: Lucene merging the segments the write left, of the vector index above all, and a
    checkpoint under way). No checkpoint is forced: Neo4j Community has no ``db.checkpoint`` procedure; a
    checkpoint runs every 15 minutes or 100,000 transactions (Neo4j's defaults, which the launcher keeps) and
    shows here as CPU.

    Returns {"indexes_s", "fulltext_s", "idle_s": seconds each step waited, "idle_cores": Neo4j's CPU in the last
    window (cores; NaN without ``pids``), "settled": 1.0 when it went idle within ``timeout``, else 0.0}.
    """
    out: dict[str, float] = {}
    with driver.session(database=database) as session:
        t0 = time.perf_counter()
        session.run("CALL db.awaitIndexes($seconds)", seconds=int(timeout)).consume()
        t1 = time.perf_counter()
        session.run("CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()").consume()
        t2 = time.perf_counter()
    out.update(indexes_s=t1 - t0, fulltext_s=t2 - t1, idle_cores=math.nan, settled=1.0)
    quiet, deadline = 0, t2 + timeout
    while pids and quiet < IDLE_WINDOWS:
        if time.perf_counter() > deadline:
            out["settled"] = 0.0
            log.warning("Neo4j still used %.2f cores after %.0f s: timing anyway", out["idle_cores"], timeout)
            break
        before, start = cpu_seconds(pids), time.perf_counter()
        time.sleep(1.0)
        out["idle_cores"] = (cpu_seconds(pids) - before) / (time.perf_counter() - start)
        quiet = quiet + 1 if out["idle_cores"] < IDLE_CORES else 0
    out["idle_s"] = time.perf_counter() - t2
    return out


def _write_log(objects: Sequence[dict[str, Any]], folder: Path, name: str) -> Path:
    path = folder / f"{name}.jsonl"
    path.write_text("".join(dumps_line(o) + "\n" for o in objects), encoding="utf-8")
    return path


def _growth(first: dict[str, Any], last: dict[str, Any], key: str) -> float | None:
    a, b = first["stages"].get(key) or 0.0, last["stages"].get(key) or 0.0
    if a <= 0.0 or b <= 0.0:
        return None
    return round(math.log(b / a) / math.log(last["turns"] / first["turns"]), 2)


def run_ingest(driver: neo4j.Driver, database: str | None, params: Parameters, embedder: Embedder,
               sizes: Sequence[tuple[int, int]] = INGEST_SIZES, seed: int = 3) -> dict[str, Any]:
    """Ingest one conversation per (turns, sessions) in ``sizes`` and time its stages; each game is deleted after.
    A conversation of the first size is ingested once before, untimed (the warm-up).

    Returns {"rows": [{turns, phases, memories, seconds, stages: {stage: seconds}}], "growth": {stage: b}}.
    """
    service = MemoryService(driver, params=params, embedder=embedder)
    embedder.encode_one("warm the model up")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        # a first ingest pays for the schema, Neo4j's query plans and the JIT: done once untimed, so that the
        # growth between the shortest and the longest conversation measures the stages, not the warm-up
        warm = "bench-talk-ingest-warm-up"
        try:
            service.ingest(_write_log(conversation(sizes[0][0], sizes[0][1], seed=seed + 1, game=warm), Path(tmp),
                                      warm))
        finally:
            delete_game(driver, database, warm)
        for turns, phases in sizes:
            game = f"bench-talk-ingest-{turns}x{phases}"
            path = _write_log(conversation(turns, phases, seed=seed, game=game), Path(tmp), game)
            embedder.clear_cache()
            try:
                summary = service.ingest(path)
            finally:
                delete_game(driver, database, game)
            rows.append({"turns": turns, "phases": phases, "memories": summary.memories,
                         "seconds": round(summary.seconds, 3),
                         "stages": {k: round(summary.stages.get(k, 0.0), 3) for k in STAGES}})
            log.info("ingest %s", rows[-1])
    return {"rows": rows, "growth": {k: _growth(rows[0], rows[-1], k) for k in STAGES}}


def _store(driver: neo4j.Driver, database: str | None, turns: int, profile: str | None, params: Parameters,
           embedder: Embedder) -> str:
    """Write a conversation of ``turns`` turns over turns/20 sessions with both speakers on ``profile`` (reused
    when a complete one is stored); returns the game id."""
    game = f"bench-talk-recall-{turns}-{profile or 'default'}"
    if driver.execute_query("MATCH (g:Game {uid: $game, complete: true}) RETURN g", game=game,
                            database_=database).records:
        return game
    objects = conversation(turns, max(1, turns // 20), seed=7, game=game, profile=profile)
    with tempfile.TemporaryDirectory() as tmp:
        encoded = encode_game(load_game_log(_write_log(objects, Path(tmp), game), "graphmem"), params)
    by_text = _embed(embedder, sorted({m.text for m in encoded.memories}))
    ensure_schema(driver, database, embedder.dimension)
    write_game_rows(driver, database, encoded, {m.uid: by_text[m.text].tolist() for m in encoded.memories}, [])
    advance(driver, database, game, encoded.game.last_phase, params)
    mark_complete(driver, database, game)
    return game


def _topics(n: int, seed: int) -> list[str]:
    """``n`` distinct questions about the conversation (a turn's words turned into a question, numbered so that
    the embedding model's cache never holds one); every other one names a speaker, so that the source route
    (docs/model.md#candidates-and-ranking) is timed over half of an owner's memories."""
    import random

    from bench.conversation import SPEAKERS

    rng = random.Random(seed)
    return [f"Do you remember when {statement(rng).rstrip('.!?')}? ({i})" if i % 2 else
            f"Did {SPEAKERS[i // 2 % 2]} say that {statement(rng).rstrip('.!?').lower()}? ({i})" for i in range(n)]


def run_recall(driver: neo4j.Driver, database: str | None, params: Parameters, embedder: Embedder,
               owners: Sequence[int] = (1_000, 10_000), profiles: Sequence[str | None] = (None, "perfect"),
               calls: int = 200, keep: bool = False, warm_up: bool = True,
               neo4j_pids: Sequence[int] = ()) -> list[dict[str, Any]]:
    """Time recall for an owner of each size in ``owners`` (memories), for each profile (None: the default).

    Each owner's game is stored, then the database settles (:func:`settle`: indexes online, the full-text index
    refreshed, and, with ``neo4j_pids``, the Neo4j processes of :func:`local_pids`, their CPU idle) before anything
    is timed: a freshly written database's background work otherwise lands in the timings (the same code gave 63-106
    ms after another's write and, fifteen minutes later on a fresh database, 406-458 ms: bench/README.md).

    ``warm_up``: the first owner is timed twice and the figures are the second round's; the first round's are kept in
    that row's ``first_round`` ({figure: ms} of :data:`ROUND_FIGURES`). Neo4j runs its code in its interpreter until
    its JIT compilers have compiled it, and a recall that meets a code path for the first time (the first writes, the
    first reads after a write) waits for that: on a freshly started Neo4j the first round's p95 after another's write
    was 46.8 and 82.2 ms for the owners of 1,000 memories, the next two rounds' 35.6/23.5 and 31.6/24.5 ms
    (bench/README.md, "Recall latency while Neo4j warms up"). ``warm_up=False`` times a freshly started Neo4j.

    Returns one dict per (size, profile): memories (per owner), profile, candidates (mean per recall), cold_ms (the
    first recall of each owner, embedding cache empty, mean of the two owners), median_ms / p95_ms (every call, topic
    embedding included), other_median_ms / other_p95_ms (each call after another process's writing recall of the
    owner: the memories it logged read again), reread_median_ms / reread_p95_ms (each call after a write that did not
    say what it changed: the candidates read again), writing_median_ms / writing_p95_ms (writing recalls in a row,
    each owner's after its own last write, which brought what the process holds up to date), embed_median_ms (the
    topic's embedding beyond the read, which it overlaps), read_median_ms (the candidates' query),
    cypher_dense_median_ms / cypher_dense_p95_ms (reference: the cosine with every memory of the owner in Cypher),
    vector_median_ms / vector_p95_ms (reference: bare vector-index top 10), settled (what :func:`settle` waited),
    and of each cell (``held``, ``other``, ``reread``, ``writing``) ``{cell}_cpu_ms`` and, with ``neo4j_pids``,
    ``{cell}_neo4j_cpu_ms``: the median CPU time per recall of this process (every thread: the model's, the driver's,
    the reader's) and of Neo4j, from /proc (:class:`bench.cpu.TaskClock`), read around each timed recall: what a
    recall costs whatever else the machine runs, where its wall time is not. Each game is deleted afterwards unless
    ``keep``.
    """
    rows: list[dict[str, Any]] = []
    embedder.encode_one("warm the model up")
    for size in owners:
        for profile in profiles:
            if profile is not None and profile not in params.profiles:
                log.warning("no profile %r: skipped", profile)
                continue
            game = _store(driver, database, size, profile, params, embedder)
            try:
                settled = settle(driver, database, neo4j_pids)
                log.info("settled before timing %s: %s", game, settled)
                first = None
                if warm_up and not rows:  # Neo4j compiles its code paths during the first round: time it apart
                    first = _time_owner(driver, database, game, size, profile, params, embedder, calls, neo4j_pids)
                rows.append(_time_owner(driver, database, game, size, profile, params, embedder, calls, neo4j_pids))
                rows[-1]["settled"] = settled
                if first is not None:
                    rows[-1]["first_round"] = {key: first[key] for key in ROUND_FIGURES}
            finally:
                if not keep:
                    delete_game(driver, database, game)
            log.info("recall %s", rows[-1])
    return rows


ROUND_FIGURES = ("median_ms", "p95_ms", "other_median_ms", "other_p95_ms", "reread_median_ms", "reread_p95_ms",
                 "writing_median_ms", "writing_p95_ms")
"""The figures of a round kept for the warm-up round (:func:`run_recall`)."""


def _time_owner(driver: neo4j.Driver, database: str | None, game: str, size: int, profile: str | None,
                params: Parameters, embedder: Embedder, calls: int, neo4j_pids: Sequence[int] = ()) -> dict[str, Any]:
    cache = EmbeddingCache()
    reader = MemoryReader(background=True)  # as a server's: the raise after a writing recall's commit in its thread
    # the model's content cache would hold the topics (and keywords) of an earlier owner of the same size: without
    # this, every profile after the first was timed without its topic embedding
    embedder.clear_cache()
    speakers = ("Avery", "Jordan")
    topics = _topics(calls + 2, seed=size)
    recall(driver, database, game, speakers[0], topic="warm-up", params=params, embedder=embedder, dry_run=True,
           cache=EmbeddingCache(0))  # query plans, not timed
    cold = []
    for i, owner in enumerate(speakers):
        t0 = time.perf_counter()
        recall(driver, database, game, owner, topic=topics[i], params=params, embedder=embedder, dry_run=True,
               cache=cache, reader=reader)
        cold.append(time.perf_counter() - t0)
    mine, neo = TaskClock([os.getpid()]), TaskClock(neo4j_pids)
    walls: dict[str, list[float]] = {}
    cpus: dict[str, list[float]] = {}
    neo_cpus: dict[str, list[float]] = {}

    def timed(cell: str, i: int, topic: str, dry_run: bool = True) -> RecallResult:
        # Neo4j's clock is read outside this process's, whose reading of ~100 threads' files costs ~1 ms of CPU
        n0 = neo.seconds() if neo4j_pids else 0.0
        c0 = mine.seconds()
        t0 = time.perf_counter()
        result = recall(driver, database, game, speakers[i % 2], topic=topic, params=params, embedder=embedder,
                        dry_run=dry_run, cache=cache, reader=reader)
        walls.setdefault(cell, []).append(time.perf_counter() - t0)
        cpus.setdefault(cell, []).append(mine.seconds() - c0)
        if neo4j_pids:
            neo_cpus.setdefault(cell, []).append(neo.seconds() - n0)
        return result

    embeds, reads, candidates = [], [], []
    for i in range(calls):
        result = timed("held", i, topics[i + 2])
        embeds.append(result.timings["embed"])
        reads.append(result.timings["read"])
        candidates.append(result.candidates)
    for i in range(calls // 2):
        with driver.session(database=database) as session:  # as a write that does not say what it changed
            session.execute_write(raise_memory_versions, game)
        timed("reread", i, topics[i + 2] + " again")
    elsewhere, elsewhere_cache = MemoryReader(background=True), EmbeddingCache()
    for i in range(calls // 2):
        # another process's writing recall of the same owner (a second server worker, which keeps its vectors as
        # this one does: without a cache of its own, each of its recalls read all 10,000 embeddings of the `perfect`
        # owner just before the timed recall): it logs the memories it changed, which this process reads again
        recall(driver, database, game, speakers[i % 2], topic=topics[i + 2] + " elsewhere", params=params,
               embedder=embedder, cache=elsewhere_cache, reader=elsewhere)
        elsewhere.settle()  # the other process's raise after its commit: its write is whole
        timed("other", i, topics[i + 2] + " after that")
    for i in range(calls // 2):
        timed("writing", i, topics[i + 2] + " once more", dry_run=False)
    reader.settle()  # the last writing recall's raise after its commit, before the references run
    dense, vector = [], []
    with driver.session(database=database) as session:
        for i in range(min(calls, 100)):
            v = [float(x) for x in embedder.encode_one(topics[i + 2])]
            t0 = time.perf_counter()
            session.run(CYPHER_DENSE, game=game, owner=speakers[i % 2], v=v).consume()
            dense.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            session.run(VECTOR_TOP_K, v=v).consume()
            vector.append(time.perf_counter() - t0)
    median, p95 = _stats(walls["held"])
    row = {"memories": size, "profile": profile or params.default_profile, "candidates": statistics.mean(candidates),
           "cold_ms": 1000 * statistics.mean(cold), "median_ms": median, "p95_ms": p95,
           "reread_median_ms": _stats(walls["reread"])[0], "reread_p95_ms": _stats(walls["reread"])[1],
           "other_median_ms": _stats(walls["other"])[0], "other_p95_ms": _stats(walls["other"])[1],
           "writing_median_ms": _stats(walls["writing"])[0], "writing_p95_ms": _stats(walls["writing"])[1],
           "embed_median_ms": _stats(embeds)[0], "read_median_ms": _stats(reads)[0],
           "cypher_dense_median_ms": _stats(dense)[0], "cypher_dense_p95_ms": _stats(dense)[1],
           "vector_median_ms": _stats(vector)[0], "vector_p95_ms": _stats(vector)[1]}
    for cell in CELLS:
        row[f"{cell}_cpu_ms"] = _stats(cpus[cell])[0]
        if neo4j_pids:
            row[f"{cell}_neo4j_cpu_ms"] = _stats(neo_cpus[cell])[0]
    return row


CELLS = ("held", "other", "reread", "writing")
"""The cells of :func:`run_recall`: held candidates, after another's write, after an unlogged write, writing."""


def main(argv: Sequence[str]) -> None:
    """``python -m bench.bench_conversation URI [--ingest] [--recall]``: print the figures (both without a flag)."""
    import argparse

    from bench.run import bench_driver

    parser = argparse.ArgumentParser(prog="python -m bench.bench_conversation",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("uri", nargs="?", default=os.environ.get("NEO4J_URI"),
                        help="the Neo4j to measure against (default $NEO4J_URI; user $NEO4J_USER or neo4j, password "
                             "$NEO4J_PASSWORD or graphmem, as `graphmem neo4j start` sets them)")
    parser.add_argument("--ingest", action="store_true", help="ingest by stage, 150 to 2,400 turns")
    parser.add_argument("--recall", action="store_true", help="recall latency, owners of 1,000 and 10,000 memories")
    parser.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                        help="time the first owner's first round too (a freshly started Neo4j compiles as it goes)")
    args = parser.parse_args(argv)
    if not args.uri:
        parser.error("give the URI of a Neo4j to measure against (or set NEO4J_URI); it writes and deletes games")
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    ingest, recall_ = args.ingest or not args.recall, args.recall or not args.ingest
    params = default_parameters()
    embedder = Embedder()
    with bench_driver(args.uri) as driver:
        if ingest:
            result = run_ingest(driver, None, params, embedder)
            for r in result["rows"]:
                print(f"{r['turns']:>5} turns / {r['phases']:>3} sessions ({r['memories']} memories): "
                      f"{r['seconds']:.1f} s = " + ", ".join(f"{k} {v:.2f}" for k, v in r["stages"].items()))
            print("growth (time ~ turns^b): " + ", ".join(f"{k} {v}" for k, v in result["growth"].items()))
        if recall_:
            def after(f: dict[str, Any]) -> str:
                return (f"after another's write {f['other_median_ms']:.1f}/{f['other_p95_ms']:.1f} ms; after an "
                        f"unlogged write {f['reread_median_ms']:.1f}/{f['reread_p95_ms']:.1f} ms; writing recalls "
                        f"{f['writing_median_ms']:.1f}/{f['writing_p95_ms']:.1f} ms")

            pids = local_pids(args.uri)
            if not pids:
                print("(Neo4j is not a process of this machine: no wait for its CPU to settle, no CPU figures)")
            for r in run_recall(driver, None, params, embedder, warm_up=args.warm_up, neo4j_pids=pids):
                if "first_round" in r:
                    f = r["first_round"]
                    print(f"first round, while Neo4j compiles (not in the figures below): recall "
                          f"{f['median_ms']:.1f}/{f['p95_ms']:.1f} ms; {after(f)}")
                print(f"owner of {r['memories']:,} memories, {r['profile']} ({r['candidates']:.0f} candidates): "
                      f"recall median {r['median_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms (read "
                      f"{r['read_median_ms']:.1f} ms, embedding beyond it {r['embed_median_ms']:.1f} ms; first "
                      f"recall {r['cold_ms']:.0f} ms); {after(r)} | cosine of every memory in Cypher "
                      f"{r['cypher_dense_median_ms']:.1f}/"
                      f"{r['cypher_dense_p95_ms']:.1f} ms | vector top-10 {r['vector_median_ms']:.1f}/"
                      f"{r['vector_p95_ms']:.1f} ms")
                print("  CPU per recall, median ms, this process" + (" + Neo4j" if pids else "") + ": " + ", ".join(
                    f"{label} {r[f'{cell}_cpu_ms']:.1f}" + (f" + {r[f'{cell}_neo4j_cpu_ms']:.1f}" if pids else "")
                    for cell, label in zip(CELLS, ("held", "after another's write", "after an unlogged write",
                                                   "writing"))))
                w = r["settled"]
                print(f"  settled before timing: indexes {w['indexes_s']:.1f} s, full-text refresh "
                      f"{w['fulltext_s']:.1f} s, Neo4j idle after {w['idle_s']:.1f} s" + (
                          "" if w["settled"] else f" (not idle: {w['idle_cores']:.2f} cores)"))


if __name__ == "__main__":
    main(sys.argv[1:])
