"""Batched, idempotent writes of an encoded game (docs/graph-model.md).

Nodes first, then relationships: game, players, phases, events, memories (with sources), then who-told-whom, rumour
chains and thoughts. Every statement is a parameterised ``UNWIND $rows`` that MERGEs by uid and sets properties only
``ON CREATE``. The statements' batches are packed in order into managed write transactions of at most
``batch_size`` rows (retried by the driver on transient errors; a game smaller than that is one transaction); a
transaction with memories raises their owners' memory versions (:func:`graphmem.store.versions.write_raising_versions`).
Writing the same game again creates nothing; a run killed half-way is completed by the next one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from typing import Any

import neo4j

from graphmem.store.queries import cypher
from graphmem.store.records import DerivedRow, GameRows
from graphmem.store.versions import write_raising_versions

log = logging.getLogger(__name__)

Progress = Callable[[str, int], None]
"""``progress(what, count)``: called as a long write goes on: here after each written batch (the stage and the rows
done), in the jobs after each owner (the owner and what the job wrote for it)."""


@dataclass
class WriteCounts:
    """What the database reports it created (zero everywhere when the game was already stored)."""

    nodes_created: int = 0
    relationships_created: int = 0
    properties_set: int = 0

    def add(self, summary: neo4j.ResultSummary) -> None:
        """Add one statement's counters."""
        c = summary.counters
        self.nodes_created += c.nodes_created
        self.relationships_created += c.relationships_created
        self.properties_set += c.properties_set


def _batches(rows: Sequence[dict[str, Any]], size: int) -> list[Sequence[dict[str, Any]]]:
    return [rows[i:i + size] for i in range(0, len(rows), size)]


CypherStatement = tuple[str, dict[str, Any]]
"""One statement of a game's write: (query name under ``cypher/ingest/``, its parameters)."""


def _transactions(statements: Sequence[CypherStatement], size: int) -> list[list[CypherStatement]]:
    """The statements of a game's write cut into batches of at most ``size`` rows, packed in order into
    transactions of at most ``size`` rows each (a statement without ``rows`` counts none): one transaction for a game
    of fewer rows than ``size``, instead of one per statement. Each transaction is a round of the move fence and a
    commit in Neo4j (bench/README.md, "The test suite's time"), and a transaction of ``size`` rows is what
    ``batch_size`` bounds anyway."""
    packed: list[list[CypherStatement]] = []
    current: list[CypherStatement] = []
    held = 0
    for name, params in statements:
        for batch in _batches(params["rows"], size) if "rows" in params else [None]:
            bound = params if batch is None else {**params, "rows": list(batch)}
            rows = 0 if batch is None else len(batch)
            if current and held + rows > size:
                packed.append(current)
                current, held = [], 0
            current.append((name, bound))
            held += rows
    if current:
        packed.append(current)
    return packed


def write_game_rows(driver: neo4j.Driver, database: str | None, rows: GameRows,
                    embeddings: dict[str, list[float]], derived: list[DerivedRow], *,
                    batch_size: int = 1000, progress: Progress | None = None,
                    log_sha256: str | None = None, log_events: int | None = None,
                    live: bool = False) -> WriteCounts:
    """Write one game's rows; returns the database's counters.

    embeddings : {memory uid: embedding as a list of floats}
    batch_size : int, rows per transaction (1k-10k; memories carry 384 floats each, so keep it near 1000): the
        statements' batches are packed in order into transactions of at most this many rows
    log_sha256, log_events : the hash of the whole log (:func:`graphmem.logs.writer.log_sha256`) and its number
        of events, stored with the Game node (and replaced by a longer log's) so that a later ingest of a different
        log under the same id is refused
    live : the game is fed event by event (``MemoryService``), so it has no whole log and is never "complete"
    """
    counts = WriteCounts()
    with driver.session(database=database) as session:
        for transaction in _transactions(_statements(rows, embeddings, derived, log_sha256, log_events, live),
                                         batch_size):
            owners = {r["owner"] for name, bound in transaction if name == "write_memories" for r in bound["rows"]}
            for summary in write_raising_versions(session, rows.game.uid, owners, partial(_run_all, transaction))[0]:
                counts.add(summary)
            if progress:
                for name, bound in transaction:
                    if "rows" in bound:
                        progress(name, len(bound["rows"]))
    log.info("game %s: %d nodes and %d relationships created", rows.game.uid, counts.nodes_created,
             counts.relationships_created)
    return counts


def write_rows_in(tx: neo4j.ManagedTransaction, rows: GameRows, embeddings: dict[str, list[float]],
                  derived: list[DerivedRow], *, batch_size: int = 1000, log_sha256: str | None = None,
                  log_events: int | None = None, live: bool = False, game_row: bool = True) -> WriteCounts:
    """:func:`write_game_rows` inside the caller's transaction ``tx``, so that the rows commit together with
    whatever else the transaction does (a live batch: its claim and its event log), or not at all. The caller runs
    ``tx`` through :func:`graphmem.store.versions.write_raising_versions` with the owners of ``rows.memories``.
    ``game_row=False`` leaves the Game node as it is (a live batch whose game row did not change: its event count
    and log hash are the claim's, ``ingest/live_claim``). A statement with no rows is not run."""
    counts = WriteCounts()
    statements = [(name, params) for name, params in _statements(rows, embeddings, derived, log_sha256, log_events,
                                                                  live) if game_row or name != "write_game"]
    for transaction in _transactions(statements, batch_size):  # the batches, in order, all in ``tx``
        for summary in _run_all(transaction, tx):
            counts.add(summary)
    return counts


def _run(name: str, params: dict[str, Any], tx: neo4j.ManagedTransaction) -> neo4j.ResultSummary:
    """Run the statement ``ingest/{name}`` in ``tx``."""
    return tx.run(cypher(f"ingest/{name}"), params).consume()


def _run_all(statements: Sequence[CypherStatement], tx: neo4j.ManagedTransaction) -> list[neo4j.ResultSummary]:
    """Run ``statements`` in ``tx``, in order."""
    return [_run(name, params, tx) for name, params in statements]


def _statements(rows: GameRows, embeddings: dict[str, list[float]], derived: list[DerivedRow],
                log_sha256: str | None, log_events: int | None, live: bool) -> list[CypherStatement]:
    """Every statement of a game's write, in order (nodes first): (query name, parameters); ``rows`` parameters
    are split into batches by the caller."""
    game = rows.game.uid
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    row = {**rows.game.row(), "log_sha256": log_sha256, "log_events": log_events, "live": live}
    return [
        ("write_game", {"row": row, "now": now}),
        ("write_players", {"rows": [p.row() for p in rows.players], "game": game}),
        ("write_phases", {"rows": [p.row() for p in rows.phases], "game": game}),
        ("write_events", {"rows": [e.row() for e in rows.events]}),
        ("write_memories", {"rows": [{**m.row(), "embedding": embeddings[m.uid]} for m in rows.memories]}),
        ("write_told", {"rows": [t.row() for t in rows.told]}),
        ("write_derived", {"rows": [d.row() for d in derived]}),
        ("write_thoughts", {"rows": [t.row() for t in rows.thoughts]}),
    ]


def mark_complete(driver: neo4j.Driver, database: str | None, game: str) -> None:
    """Record that every row of ``game`` was written (``Game.complete``)."""
    driver.execute_query(cypher("ingest/mark_complete"), {"game": game}, database_=database)
