"""Benchmark of recall (docs/model.md#recall-and-reconsolidation): latency with N memories stored, against a bare
vector-index top-k query.

:func:`run` writes one synthetic game per size (``bench.generate.game_for_memories``, encoded by the real ingest
code, embedded with the real model once per distinct text, written with the real writer and decayed to its last
phase), then in the same session times

- ``recall``: :func:`graphmem.recall.recall` with reconsolidation written, over ``calls`` calls that cycle through
  the game's players and a list of topics, through one :class:`graphmem.recall.vectors.EmbeddingCache` and one
  :class:`graphmem.store.reader.MemoryReader` as :class:`graphmem.MemoryService` keeps them (topics are embedded
  before timing: the embedding is excluded, as ``timings["embed"]`` shows; so is each player's first recall, which
  fills the cache);
- ``dry``: the same calls as dry runs;
- ``reference``: a bare ``db.index.vector.queryNodes('memory_embedding', k, $v)`` with the same topic vectors;

and deletes the game. Sizes are numbers of memories; the game of a size has about that many (within ~2%).

:func:`run_stored` times the same recalls (with writes, and dry with the exact method) over games already stored,
such as the 40 real games after ``graphmem ingest ../shared/data/traitors-llm/games``: three players of each game,
two topics each, at the game's last decayed phase. The recalls with writes reconsolidate those players' memories,
as any recall does.

Embeddings of the synthetic texts are cached in ``$GRAPHMEM_BENCH_CACHE`` (default
``~/.cache/graphmem/bench-embeddings.npz``) so that a second run does not wait for the model.

Run: ``python bench/bench_recall.py bolt://127.0.0.1:7687 10000 100000`` (synthetic sizes), or
``python bench/bench_recall.py bolt://127.0.0.1:7687 --stored`` (every complete non-bench game stored there).
"""

from __future__ import annotations

import hashlib
import logging
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import neo4j
import numpy as np

from bench.generate import game_for_memories
from graphmem.embedding import Embedder, Vectors
from graphmem.importers import load_game_log
from graphmem.ingest.encode import encode_game
from graphmem.jobs.decay import advance
from graphmem.logs.writer import dumps_line
from graphmem.model import Parameters, default_parameters
from graphmem.recall import EmbeddingCache, recall
from graphmem.store.games import delete_game
from graphmem.store.reader import MemoryReader
from graphmem.store.schema import ensure_schema
from graphmem.store.writer import mark_complete, write_game_rows

log = logging.getLogger(__name__)

TOPICS = ("Is {p} a traitor?", "{p} voted against me at the round table", "who was murdered last night",
          "what did {p} tell me in private", "{p} has been far too quiet", "alibi library cards midnight",
          "rumour about the turret and a black seal", "who should we banish today", "I trust {p}",
          "the mission this morning")
REFERENCE = ("CALL db.index.vector.queryNodes('memory_embedding', $k, $v) YIELD node, score "
             "RETURN node.uid AS uid, score")


def _cache_path() -> Path:
    return Path(os.environ.get("GRAPHMEM_BENCH_CACHE") or Path.home() / ".cache" / "graphmem" / "bench-embeddings.npz")


def _embed(embedder: Embedder, texts: Sequence[str]) -> dict[str, Vectors]:
    """Embeddings of ``texts`` by content hash, from the disk cache where possible (the cache is extended)."""
    path = _cache_path()
    cache: dict[str, Vectors] = {}
    if path.is_file():
        with np.load(path) as data:
            cache = {k: data[k] for k in data.files}
    keys = {hashlib.sha256(t.encode("utf-8")).hexdigest(): t for t in texts}
    missing = [k for k in keys if k not in cache]
    if missing:
        t0 = time.perf_counter()
        vectors = embedder.encode([keys[k] for k in missing])
        log.info("embedded %d new texts in %.0f s", len(missing), time.perf_counter() - t0)
        cache.update(zip(missing, vectors))
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, **cache)  # type: ignore[arg-type]  # numpy's stub mistypes **kwds
    return {keys[k]: cache[k] for k in keys}


def _store(driver: neo4j.Driver, database: str | None, size: int, seed: int, params: Parameters,
           embedder: Embedder) -> tuple[str, list[str]]:
    """Write a synthetic game of about ``size`` memories (unless a complete one is stored, as ``keep`` leaves it);
    returns (game id, player names)."""
    game_id = f"bench-recall-{size}-s{seed}"
    stored = driver.execute_query("MATCH (g:Game {uid: $game, complete: true})-[:HAS_PLAYER]->(p:Player) "
                                  "RETURN p.name AS name ORDER BY name", game=game_id, database_=database).records
    if stored:
        return game_id, [r["name"] for r in stored]
    objects = game_for_memories(size, seed=seed, game_id=game_id)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        path.write_text("".join(dumps_line(o) + "\n" for o in objects), encoding="utf-8")
        encoded = encode_game(load_game_log(path, "graphmem"), params)
    by_text = _embed(embedder, sorted({m.text for m in encoded.memories}))
    ensure_schema(driver, database, embedder.dimension)
    t0 = time.perf_counter()
    write_game_rows(driver, database, encoded, {m.uid: by_text[m.text].tolist() for m in encoded.memories}, [])
    advance(driver, database, game_id, encoded.game.last_phase, params)
    mark_complete(driver, database, game_id)
    log.info("stored %s: %d memories in %.0f s", game_id, len(encoded.memories), time.perf_counter() - t0)
    return game_id, [p.name for p in encoded.players]


def _stats(samples: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return 1000 * statistics.median(ordered), 1000 * p95


def _time_recalls(driver: neo4j.Driver, database: str | None, game: str, calls: Sequence[tuple[str, str]],
                  params: Parameters, embedder: Embedder, **options: Any) -> tuple[list[float], list[list[str]]]:
    times, tops = [], []
    cache = options.pop("cache", None) or EmbeddingCache()
    reader = options.pop("reader", None) or MemoryReader()
    for player in dict.fromkeys(p for p, _ in calls):  # the first recall of each player fills the cache: not timed
        recall(driver, database, game, player, topic=calls[0][1], params=params, embedder=embedder, dry_run=True,
               cache=cache, reader=reader)
    for i, (player, topic) in enumerate(calls):
        result = recall(driver, database, game, player, topic=topic, seed=i, params=params, embedder=embedder,
                        cache=cache, reader=reader, **options)
        times.append(result.timings["total"] - result.timings["embed"])
        tops.append([m.uid for m in result.memories])
    return times, tops


def run(driver: neo4j.Driver, database: str | None, sizes: Sequence[int] = (1_000, 10_000, 100_000),
        calls: int = 200, seed: int = 1, embedder: Embedder | None = None, k: int = 10,
        keep: bool = False) -> list[dict[str, Any]]:
    """Time recall for each size (see the module docstring); each game is deleted afterwards, also on failure,
    unless ``keep`` (a later run with the same seed then reuses it instead of writing it again).

    Returns one dict per size: size (asked), memories (stored), candidates (mean memories per player),
    recall_median_ms / recall_p95_ms (recall with writes, embedding excluded), exact_median_ms / exact_p95_ms (dry
    runs), reference_median_ms / reference_p95_ms (bare vector-index top-k), embed_median_ms (the topic
    embedding, reported apart; ~0 when the embedder's cache holds the topic).
    """
    params = default_parameters()
    embedder = embedder or Embedder()
    rows: list[dict[str, Any]] = []
    for size in sizes:
        game, players = _store(driver, database, size, seed, params, embedder)
        try:
            plan = [(players[i % len(players)], TOPICS[i % len(TOPICS)].format(p=players[(i * 7 + 3) % len(players)]))
                    for i in range(calls)]
            t0 = time.perf_counter()
            vectors = {t: embedder.encode_one(t) for _, t in plan}
            embed_ms = 1000 * (time.perf_counter() - t0) / max(1, len(vectors))
            recall(driver, database, game, players[0], topic=plan[0][1], params=params, embedder=embedder,
                   dry_run=True)  # warm-up: query plans
            cache, reader = EmbeddingCache(), MemoryReader()
            exact, _ = _time_recalls(driver, database, game, plan, params, embedder, dry_run=True, cache=cache,
                                     reader=reader)
            written, _ = _time_recalls(driver, database, game, plan, params, embedder, cache=cache, reader=reader)
            reference = []
            with driver.session(database=database) as session:
                for _, topic in plan:
                    t1 = time.perf_counter()
                    session.run(REFERENCE, k=k, v=vectors[topic].tolist()).data()
                    reference.append(time.perf_counter() - t1)
            candidates = driver.execute_query("MATCH (m:Memory {game: $game}) RETURN count(m) AS n, "
                                              "count(DISTINCT m.owner) AS owners", game=game,
                                              database_=database).records[0]
        finally:
            if not keep:  # memories first, in batches (store.games.DELETE_ORDER): a player is cheap once they are gone
                delete_game(driver, database, game)
        row = {"size": size, "memories": int(candidates["n"]),
               "candidates": int(candidates["n"]) / max(1, int(candidates["owners"])),
               "recall_median_ms": _stats(written)[0], "recall_p95_ms": _stats(written)[1],
               "exact_median_ms": _stats(exact)[0], "exact_p95_ms": _stats(exact)[1],
               "reference_median_ms": _stats(reference)[0], "reference_p95_ms": _stats(reference)[1],
               "embed_median_ms": embed_ms}
        log.info("%s", row)
        rows.append(row)
    return rows


STORED_TOPICS = (TOPICS[0], TOPICS[6])
"""The topics of :func:`run_stored`: one about a player, one about nobody in particular."""


def run_stored(driver: neo4j.Driver, database: str | None, games: Sequence[str] | None = None,
               players_per_game: int = 3, embedder: Embedder | None = None) -> dict[str, Any]:
    """Time recalls over stored games: for each game (default: every complete game whose id does not start with
    ``bench-``), its first ``players_per_game`` players by name, each with the :data:`STORED_TOPICS` about the next
    player, first as dry runs, then with reconsolidation written.

    Returns games, recalls, memories (mean per recalling owner), recallable (mean candidates per recall),
    recall_median_ms / recall_p95_ms (with writes) and exact_median_ms / exact_p95_ms (dry), embedding excluded.
    Raises ValueError when no game is stored.
    """
    params = default_parameters()
    embedder = embedder or Embedder()
    if games is None:
        games = [r["game"] for r in driver.execute_query(
            "MATCH (g:Game {complete: true}) WHERE NOT g.uid STARTS WITH 'bench-' RETURN g.uid AS game ORDER BY game",
            database_=database).records]
    if not games:
        raise ValueError("no complete game is stored: ingest some first (graphmem ingest PATH)")
    players = {r["game"]: r["names"] for r in driver.execute_query(
        "MATCH (g:Game)-[:HAS_PLAYER]->(p:Player) WHERE g.uid IN $games WITH g, p ORDER BY p.name "
        "RETURN g.uid AS game, collect(p.name) AS names", games=list(games), database_=database).records}
    plans: list[tuple[str, list[tuple[str, str]]]] = []
    for game in games:
        names = players.get(game, [])
        chosen = names[:players_per_game]
        plans.append((game, [(p, t.format(p=names[(names.index(p) + 1) % len(names)]))
                             for p in chosen for t in STORED_TOPICS]))
    for _, plan in plans:  # topic embeddings and query plans warmed up, not timed
        for _, topic in plan:
            embedder.encode_one(topic)
    recall(driver, database, plans[0][0], plans[0][1][0][0], topic=plans[0][1][0][1], params=params,
           embedder=embedder, dry_run=True)
    dry: list[float] = []
    written: list[float] = []
    sizes: list[int] = []
    cache, reader = EmbeddingCache(), MemoryReader()
    for game, plan in plans:
        times, _ = _time_recalls(driver, database, game, plan, params, embedder, dry_run=True, cache=cache,
                                 reader=reader)
        dry += times
        for player, topic in plan:
            result = recall(driver, database, game, player, topic=topic, params=params, embedder=embedder,
                            cache=cache, reader=reader)
            written.append(result.timings["total"] - result.timings["embed"])
            sizes.append(result.candidates)
    owners = driver.execute_query("MATCH (m:Memory) WHERE m.game IN $games RETURN count(m) AS n, "
                                  "count(DISTINCT [m.game, m.owner]) AS owners", games=list(games),
                                  database_=database).records[0]
    return {"games": len(plans), "recalls": len(written), "memories": owners["n"] / max(1, owners["owners"]),
            "recallable": statistics.mean(sizes) if sizes else 0.0,
            "recall_median_ms": _stats(written)[0], "recall_p95_ms": _stats(written)[1],
            "exact_median_ms": _stats(dry)[0], "exact_p95_ms": _stats(dry)[1]}


def main(argv: Sequence[str]) -> None:
    """``python bench/bench_recall.py URI [SIZE ...]``: print one line per size;
    ``python bench/bench_recall.py URI --stored [GAME ...]``: one line for the stored games."""
    from bench.run import bench_driver

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    uri = argv[0] if argv else "bolt://127.0.0.1:7687"
    if "--stored" in argv[1:]:
        chosen = [a for a in argv[1:] if a != "--stored"] or None
        with bench_driver(uri) as driver:
            s = run_stored(driver, None, chosen)
        print(f"{s['games']} stored games, {s['recalls']} recalls ({s['memories']:.0f} memories per owner, "
              f"{s['recallable']:.0f} recallable per recall): recall median {s['recall_median_ms']:.1f} ms "
              f"p95 {s['recall_p95_ms']:.1f} ms | dry exact {s['exact_median_ms']:.1f}/{s['exact_p95_ms']:.1f} ms")
        return
    sizes = [int(a) for a in argv[1:]] or [1_000, 10_000, 100_000]
    with bench_driver(uri) as driver:
        for r in run(driver, None, sizes):
            print(f"{r['memories']:>9,} memories ({r['candidates']:.0f} per player): recall median "
                  f"{r['recall_median_ms']:.1f} ms p95 {r['recall_p95_ms']:.1f} ms | dry exact "
                  f"{r['exact_median_ms']:.1f}/{r['exact_p95_ms']:.1f} ms | "
                  f"bare vector top-k {r['reference_median_ms']:.1f}/{r['reference_p95_ms']:.1f} ms | "
                  f"topic embedding {r['embed_median_ms']:.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
