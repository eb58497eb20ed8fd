"""The graph schema of docs/graph-model.md: uniqueness constraints, range, full-text and vector indexes.

:func:`ensure_schema` is what ``graphmem init`` runs (ingest and the service run it too). Every statement is
``IF NOT EXISTS``, so a second run creates nothing; constraints come before any data is loaded (STYLE: "uniqueness
constraints before loading"). It also upgrades a database written by an earlier graphmem: a full-text index
``memory_text`` over other properties than :data:`FULLTEXT_PROPERTIES` is dropped and rebuilt, and memories
without the owner's scope token ``scope`` get it (:func:`backfill_scopes`), and when the recall index
``memory_recall`` is created in a database that already holds memories, they get the properties it covers
(:func:`backfill_recall`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import neo4j
from neo4j import RoutingControl
from neo4j.exceptions import Neo4jError, ResultFailedError

from graphmem.errors import Neo4jUnavailable
from graphmem.store.keys import scope_token
from graphmem.store.queries import cypher, with_identifiers
from graphmem.store.versions import raise_memory_versions

log = logging.getLogger(__name__)

EQUIVALENT_RULE_EXISTS = "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"
"""The code Neo4j answers ``CREATE ... IF NOT EXISTS`` with when another transaction created the same index or
constraint after this one looked (processes starting games at once on a fresh database, e.g. ``graphmem model
people``'s workers): the rule exists, as asked."""

UID_LABELS = ("Game", "Player", "Phase", "Event", "Source", "Memory", "Conflict", "Thought", "LogBatch", "PlayerToken",
              "MemoryVersion", "Series", "Person", "IdempotencyKey")
"""Every label with a ``uid`` (a uniqueness constraint each; all but Game, Series and Person also carry ``game``,
range-indexed). LogBatch holds a live game's accepted events, PlayerToken the hash of a player token
(docs/service.md), MemoryVersion an owner's memory version (:mod:`graphmem.store.versions`), Series and Person a
series of games and its people (:mod:`graphmem.store.series`), IdempotencyKey a write sent with an
Idempotency-Key and its answer (:mod:`graphmem.store.idempotency`)."""
SERIES_LABELS = ("Game", "Series", "Person")
"""The labels whose nodes belong to no single game (a Game is its own)."""
RANGE_INDEXES: tuple[tuple[str, str], ...] = (
    *((label, "game") for label in UID_LABELS if label not in SERIES_LABELS),
    ("Memory", "state"),
    ("Memory", "owner"),
    ("Event", "kind"),
    ("Player", "name"),
    ("Series", "name"),
    ("IdempotencyKey", "claimed_at"),
)
PAIR_INDEXES: tuple[tuple[str, str, str], ...] = (("Memory", "game", "owner"),)
RELATIONSHIP_INDEXES: tuple[tuple[str, str], ...] = (("TOLD", "event"),)
"""TOLD(event): ingest MERGEs one TOLD edge per statement and listener between two players; without the index the
MERGE scans every TOLD edge between them, so a long conversation between two people took time quadratic in its
length (4,000 turns: 17.5 s against 2.3 s for 1,000)."""
RECALL_INDEX = "memory_recall"
RECALL_PROPERTIES = ("game", "owner", "strength", "state", "t_enc", "t_ref", "e_ref", "s", "floor", "threshold",
                     "flashbulb", "n", "uid")
"""Memory(game, owner, strength, state, t_enc, t_ref, e_ref, s, floor, threshold, flashbulb, n, uid): recall reads an
owner's candidates, with everything it ranks them by but the embeddings, from this index alone
(``schema/recall_index``). ``strength`` comes third so that the read seeks the owner's memories at least as strong
as the lowest cue floor: an owner's long-forgotten memories are not even read from the index."""
FULLTEXT_INDEX = "memory_text"
FULLTEXT_PROPERTIES = ("text", "keywords", "context", "scope")
"""What ``memory_text`` covers: the memory text, its keywords, the statement a statement followed and the owner's
scope token."""
FULLTEXT_ANALYZER = "english"
"""The analyzer of ``memory_text``: stop words out, words stemmed (``schema/fulltext_index``)."""
FULLTEXT_SEARCH = ("CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh() "
                   "CALL db.index.fulltext.queryNodes('memory_text', $q) YIELD node, score ")
"""The head of a query that searches ``memory_text`` for the Lucene query ``$q`` as recall does (yields ``node``,
``score``): the index is eventually consistent (``schema/fulltext_index``), so it first waits for the updates of
every transaction committed before it; a bare ``queryNodes`` may miss a memory written a moment ago."""
VECTOR_INDEX = "memory_embedding"


@dataclass(frozen=True)
class SchemaReport:
    """What :func:`ensure_schema` found and did.

    created : tuple of names created by this run (empty on a second run)
    indexes : tuple of (name, type, state) of every index after the run
    constraints : int, the number of constraints
    dimensions : int, the vector index's dimension
    rebuilt : tuple of names of indexes dropped and created again with the current definition
    backfilled : int, memories given their scope token by this run
    """

    created: tuple[str, ...]
    indexes: tuple[tuple[str, str, str], ...]
    constraints: int
    dimensions: int
    rebuilt: tuple[str, ...] = ()
    backfilled: int = 0


def _names(driver: neo4j.Driver, database: str | None) -> set[str]:
    indexes, _, _ = driver.execute_query(cypher("schema/show_indexes"), database_=database,
                                         routing_=RoutingControl.READ)
    constraints, _, _ = driver.execute_query(cypher("schema/show_constraints"), database_=database,
                                             routing_=RoutingControl.READ)
    return {r["name"] for r in indexes} | {r["name"] for r in constraints}


def schema_statements(dimensions: int) -> list[tuple[str, neo4j.Query | str, dict[str, object]]]:
    """The (name, statement, parameters) list that builds the schema, constraints first."""
    statements: list[tuple[str, neo4j.Query | str, dict[str, object]]] = []
    for label in UID_LABELS:
        name = f"{label.lower()}_uid"
        statements.append((name, with_identifiers(cypher("schema/uid_constraint"), name=name, label=label), {}))
    for label, prop in RANGE_INDEXES:
        name = f"{label.lower()}_{prop}"
        text = with_identifiers(cypher("schema/range_index"), name=name, label=label, property=prop)
        statements.append((name, text, {}))
    for label, first, second in PAIR_INDEXES:
        name = f"{label.lower()}_{first}_{second}"
        text = with_identifiers(cypher("schema/range_index_pair"), name=name, label=label, first=first, second=second)
        statements.append((name, text, {}))
    for rel_type, prop in RELATIONSHIP_INDEXES:
        name = f"{rel_type.lower()}_{prop}"
        text = with_identifiers(cypher("schema/range_index_relationship"), name=name, type=rel_type, property=prop)
        statements.append((name, text, {}))
    statements.append((RECALL_INDEX, cypher("schema/recall_index"), {}))
    statements.append((FULLTEXT_INDEX, cypher("schema/fulltext_index"), {}))
    statements.append((VECTOR_INDEX, cypher("schema/vector_index"), {"dimensions": dimensions}))
    return statements


def backfill_scopes(driver: neo4j.Driver, database: str | None, batch_size: int = 10_000) -> int:
    """Give every memory without ``scope`` its owner's token (:func:`graphmem.ingest.records.scope_token`).

    A database written before the token existed has none, and recall's full-text query (``... AND scope:TOKEN``)
    would find none of its memories. One read finds the (game, owner) pairs that lack it; one batched write
    (``CALL IN TRANSACTIONS`` of ``batch_size`` memories) sets it. Returns the number of memories backfilled
    (0, after one read of every memory's ``scope``, when none lacks it).
    """
    records, _, _ = driver.execute_query(cypher("schema/scope_missing"), database_=database,
                                         routing_=RoutingControl.READ)
    if not records:
        return 0
    scopes = [{"game": r["game"], "owner": r["owner"], "scope": scope_token(str(r["game"]), str(r["owner"]))}
              for r in records]
    total = sum(int(r["memories"]) for r in records)
    log.info("backfilling the full-text scope token of %d memories of %d owners", total, len(scopes))
    with driver.session(database=database) as session:
        session.run(cypher("schema/scope_backfill"), scopes=scopes, batch=batch_size).consume()
    return total


def backfill_recall(driver: neo4j.Driver, database: str | None, threshold: float = 0.18,
                    flashbulb_floor: float = 0.8) -> int:
    """Give every memory the properties the index ``memory_recall`` covers and every Game an incarnation, where
    missing (``schema/recall_backfill``: a memory never recalled has t_ref = t_enc, e_ref = e0 and s = s_enc; floor
    0 unless a flashbulb; the owner's threshold, else ``threshold``). A memory lacking one would be left out of the
    index, so recall would never find it; when any was changed, every owner's memory version is raised
    (:mod:`graphmem.store.versions`). Returns the number of memories changed (0 in a database written by this
    graphmem)."""
    records, _, _ = driver.execute_query(cypher("schema/recall_backfill"), threshold=threshold,
                                         flashbulb_floor=flashbulb_floor, database_=database)
    changed = int(records[0]["memories"]) if records else 0
    if changed:
        log.info("gave %d memories the properties of the recall index", changed)
        with driver.session(database=database) as session:  # what processes hold of their candidates is stale
            session.execute_write(raise_memory_versions, None)
    return changed


def _index_properties(driver: neo4j.Driver, database: str | None, name: str) -> list[str] | None:
    """The properties of the index ``name``, in order, or None when there is no such index."""
    records, _, _ = driver.execute_query(cypher("schema/show_indexes"), database_=database,
                                         routing_=RoutingControl.READ)
    return next((list(r["properties"] or []) for r in records if r["name"] == name), None)


def _outdated_fulltext(driver: neo4j.Driver, database: str | None) -> list[str] | None:
    """What an existing ``memory_text`` index has that recall does not want (other properties than
    :data:`FULLTEXT_PROPERTIES`, another analyzer than :data:`FULLTEXT_ANALYZER`, updates applied in the commit
    instead of eventually: ``schema/fulltext_index`` says why), as words for the log; None when it is as wanted or
    absent."""
    records, _, _ = driver.execute_query(cypher("schema/show_indexes"), database_=database,
                                         routing_=RoutingControl.READ)
    for r in records:
        if r["name"] == FULLTEXT_INDEX:
            properties = list(r["properties"] or [])
            if (sorted(properties) != sorted(FULLTEXT_PROPERTIES) or list(r["labels"] or []) != ["Memory"]
                    or r["analyzer"] != FULLTEXT_ANALYZER or r["eventually_consistent"] is not True):
                return properties + [f"analyzer {r['analyzer']}",
                                     "eventually consistent" if r["eventually_consistent"] else "updated in the commit"]
    return None


def _created_by_another(error: BaseException) -> bool:
    """Whether ``error`` is, or was caused by, Neo4j's :data:`EQUIVALENT_RULE_EXISTS`.

    The driver raises that error itself, or, when it fails again while rolling the transaction back, a
    ``ResultFailedError`` whose ``__cause__`` is that error (seen on 2026-12-07: 1 run in 12 of six processes).
    """
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, Neo4jError) and cause.code == EQUIVALENT_RULE_EXISTS:
            return True
        cause = cause.__cause__
    return False


def ensure_schema(driver: neo4j.Driver, database: str | None, dimensions: int,
                  timeout_s: int = 300) -> SchemaReport:
    """Create every constraint and index that is missing and wait until all are ONLINE.

    dimensions : int, the embedding dimension of the configured model (384 for all-MiniLM-L6-v2)
    timeout_s : int, seconds to wait for indexes to come ONLINE

    Upgrades an older database: backfills the memories' ``scope`` (:func:`backfill_scopes`), and drops and
    rebuilds a ``memory_text`` index over other properties than :data:`FULLTEXT_PROPERTIES`, with another
    analyzer or updated in the commit rather than eventually (logged; the rebuild repopulates it from every memory,
    seconds per 100k memories, and waits for it like any new index).

    Raises Neo4jUnavailable when an index fails to come online, or when an existing vector index was built for
    another dimension (the message says how to rebuild it).
    """
    before = _names(driver, database)
    rebuilt: tuple[str, ...] = ()
    outdated = _outdated_fulltext(driver, database)
    if outdated is not None:
        log.info("rebuilding the full-text index %s: it covers Memory %s, recall needs Memory %s, analyzer %s, "
                 "eventually consistent", FULLTEXT_INDEX, ", ".join(outdated), ", ".join(FULLTEXT_PROPERTIES),
                 FULLTEXT_ANALYZER)
        driver.execute_query(with_identifiers(cypher("schema/drop_index"), name=FULLTEXT_INDEX), database_=database)
        rebuilt = (FULLTEXT_INDEX,)
    recall_now = _index_properties(driver, database, RECALL_INDEX)
    if recall_now is not None and tuple(recall_now) != RECALL_PROPERTIES:
        log.info("rebuilding the index %s: it covers Memory %s, recall needs Memory %s", RECALL_INDEX,
                 ", ".join(recall_now), ", ".join(RECALL_PROPERTIES))
        driver.execute_query(with_identifiers(cypher("schema/drop_index"), name=RECALL_INDEX), database_=database)
        rebuilt += (RECALL_INDEX,)
    backfilled = backfill_scopes(driver, database)
    if RECALL_INDEX not in before or RECALL_INDEX in rebuilt:
        backfill_recall(driver, database)
    for name, statement, params in schema_statements(dimensions):
        if name in before and name not in rebuilt:
            continue
        log.info("creating %s", name)
        try:
            driver.execute_query(statement, params, database_=database)
        except (Neo4jError, ResultFailedError) as e:  # IF NOT EXISTS does not stop two creating it at once
            if not _created_by_another(e):
                raise
            log.info("%s was created by another process at the same time", name)
    try:
        driver.execute_query(cypher("schema/await_indexes"), {"seconds": timeout_s}, database_=database)
    except Neo4jError as e:
        raise Neo4jUnavailable(f"indexes did not come ONLINE within {timeout_s} s: {e.message}") from e
    records, _, _ = driver.execute_query(cypher("schema/show_indexes"), database_=database,
                                         routing_=RoutingControl.READ)
    indexes = tuple((r["name"], r["type"], r["state"]) for r in records)
    offline = [f"{name} ({state})" for name, _, state in indexes if state != "ONLINE"]
    if offline:
        raise Neo4jUnavailable(f"indexes not ONLINE: {', '.join(offline)}")
    vector = [r for r in records if r["name"] == VECTOR_INDEX]
    found = int(vector[0]["dimensions"]) if vector and vector[0]["dimensions"] is not None else dimensions
    if found != dimensions:
        raise Neo4jUnavailable(
            f"the vector index {VECTOR_INDEX} was built for {found} dimensions but the embedding model gives "
            f"{dimensions}: drop it (DROP INDEX {VECTOR_INDEX}) and re-embed, or configure the original model")
    constraints, _, _ = driver.execute_query(cypher("schema/show_constraints"), database_=database,
                                             routing_=RoutingControl.READ)
    created = tuple(sorted(_names(driver, database) - before))
    return SchemaReport(created, indexes, len(constraints), found, rebuilt, backfilled)
