"""Benchmark of the decay job (docs/model.md#forgetting): one ``advance`` over N memories against a bare batched SET.

:func:`run` writes N synthetic memories of one throw-away game (bare ``UNWIND ... CREATE`` in batches of 10k),
times one :func:`graphmem.jobs.decay.advance` to a new phase, then times the reference, one bare
``SET m.x = $v`` over the same nodes in batches of the same size (``CALL { } IN TRANSACTIONS``, one batch after
another, through ``session.run``), and the same bare SET of another new property in concurrent transactions (as the
decay job runs its batches), in the same session, and deletes the game. The ratio reference / decay is the share of
the cost of touching every node at all in the cost of the model's arithmetic and state logic.

The queries here are benchmark scaffolding, not part of graphmem, so they are inline rather than under
``cypher/``. Run directly against a Neo4j: ``python bench/bench_decay.py bolt://127.0.0.1:7687 10000 100000``.
"""

from __future__ import annotations

import logging
import sys
import time
import uuid
from collections.abc import Sequence
from typing import Any

import neo4j

from graphmem.jobs.decay import advance
from graphmem.model import default_parameters
from graphmem.store.games import delete_game

log = logging.getLogger(__name__)

BATCH = 10_000
PHASES = 30  # synthetic memories are encoded at phases 0..PHASES-1; the timed advance goes to PHASES

CREATE_GAME = ("CREATE (:Game {uid: $game, game: $game, title: 'decay benchmark', format: 'graphmem/1', "
               "imported_from: 'graphmem', curve: 'exponential', last_phase: $last, decayed_to: 0, complete: true})")
# Deterministic pseudo-random memories generated server-side (twice as fast as sending rows): 2% flashbulbs,
# E_ref in [0.65, 1], S in [1, 60], k in [1, 2], the four told/seen source types in turn.
CREATE_MEMORIES = """
UNWIND range($start, $stop - 1) AS i
WITH i, (i * 7919) % 10007 / 10007.0 AS u, (i * 104729) % 10009 / 10009.0 AS v,
     (i * 1299709) % 10037 / 10037.0 AS w, ['first_hand', 'direct_told', 'overheard', 'group_discuss'][i % 4] AS src
CREATE (:Memory {uid: $game + '/memory/p' + (i % 12) + '/' + i, game: $game, owner: 'p' + (i % 12), kind: 'say',
                 type: 'episodic', t_enc: i % $phases, t_ref: i % $phases, n: 0,
                 e_ref: CASE WHEN u < 0.02 THEN 1.0 ELSE 0.65 + 0.35 * v END, s: 1.0 + 59.0 * w, s_enc: 1.0 + 59.0 * w,
                 floor: CASE WHEN u < 0.02 THEN 0.8 ELSE 0.0 END, flashbulb: u < 0.02,
                 c0: [1.0, 0.9, 0.7, 0.6][i % 4], source_k: 1.0 + v, source_type: src, source_belief: src,
                 source_confidence: [1.0, 0.9, 0.7, 0.6][i % 4], strength: 1.0, state: 'active', threshold: 0.18,
                 decayed_to: 0})
"""
REFERENCE = "MATCH (m:Memory {game: $game}) CALL (m) { SET m.x = $v } IN TRANSACTIONS OF $batch ROWS"
# The same write in concurrent batches, like the decay job; a property of its own, so that both references create one.
REFERENCE_CONCURRENT = "MATCH (m:Memory {game: $game}) CALL (m) { SET m.y = $v } IN CONCURRENT TRANSACTIONS OF $batch ROWS"


def _write(driver: neo4j.Driver, database: str | None, game: str, size: int) -> None:
    driver.execute_query(CREATE_GAME, game=game, last=PHASES - 1, database_=database)
    for start in range(0, size, BATCH):
        driver.execute_query(CREATE_MEMORIES, start=start, stop=min(size, start + BATCH), game=game, phases=PHASES,
                             database_=database)


def _time_reference(driver: neo4j.Driver, database: str | None, query: str, game: str) -> float:
    with driver.session(database=database) as session:
        t0 = time.perf_counter()
        session.run(query, game=game, v=1.0, batch=BATCH).consume()
        return time.perf_counter() - t0


def run(driver: neo4j.Driver, database: str | None,
        sizes: Sequence[int] = (10_000, 100_000, 1_000_000)) -> list[dict[str, Any]]:
    """Time the decay job against a bare batched SET for each size.

    driver, database : where to write (a throw-away game per size, deleted afterwards, also on failure)
    sizes : numbers of memories

    Returns one dict per size: size (int), decay_s (float, seconds of one ``advance``), reference_s (float,
    seconds of one bare ``SET m.x = $v`` over the same memories in batches of 10k, one after another),
    reference_concurrent_s (float, the same in concurrent batches), ratio (decay_s / reference_s).
    """
    params = default_parameters()
    rows: list[dict[str, Any]] = []
    for size in sizes:
        game = f"bench-decay-{uuid.uuid4().hex[:8]}"
        try:
            t0 = time.perf_counter()
            _write(driver, database, game, size)
            log.info("wrote %d memories in %.1f s", size, time.perf_counter() - t0)
            report = advance(driver, database, game, PHASES, params, batch_size=BATCH)
            decay_s = report.seconds
            if report.memories != size:
                raise RuntimeError(f"decay updated {report.memories} of {size} memories")
            reference_s, reference_concurrent_s = (_time_reference(driver, database, query, game)
                                                   for query in (REFERENCE, REFERENCE_CONCURRENT))
        finally:
            delete_game(driver, database, game)
        row = {"size": size, "decay_s": decay_s, "reference_s": reference_s,
               "reference_concurrent_s": reference_concurrent_s, "ratio": decay_s / reference_s}
        log.info("%s", row)
        rows.append(row)
    return rows


def main(argv: Sequence[str]) -> None:
    """``python bench/bench_decay.py URI [SIZE ...]``: print one line per size."""
    from bench.run import bench_driver

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    uri = argv[0] if argv else "bolt://127.0.0.1:7687"
    sizes = [int(a) for a in argv[1:]] or [10_000, 100_000]
    with bench_driver(uri) as driver:
        for row in run(driver, None, sizes):
            print(f"{row['size']:>9,} memories: decay {row['decay_s']:.2f} s, bare SET {row['reference_s']:.2f} s "
                  f"({row['reference_concurrent_s']:.2f} s concurrent), ratio {row['ratio']:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
