"""The graph schema of docs/graph-model.md: uniqueness constraints, range, full-text and vector indexes.

:func:`ensure_schema` is what ``graphmem init`` runs. Every statement is ``IF NOT EXISTS``, so a second run creates
nothing; constraints come before any data is loaded (STYLE: "uniqueness constraints before loading").
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import neo4j
from neo4j import RoutingControl
from neo4j.exceptions import Neo4jError

from graphmem.errors import Neo4jUnavailable
from graphmem.store.queries import cypher, with_identifiers

log = logging.getLogger(__name__)

UID_LABELS = ("Game", "Player", "Phase", "Event", "Source", "Memory", "Conflict", "Thought")
RANGE_INDEXES: tuple[tuple[str, str], ...] = (
    *((label, "game") for label in UID_LABELS if label != "Game"),
    ("Memory", "state"),
    ("Memory", "owner"),
    ("Event", "kind"),
    ("Player", "name"),
)
PAIR_INDEXES: tuple[tuple[str, str, str], ...] = (("Memory", "game", "owner"),)
FULLTEXT_INDEX = "memory_text"
VECTOR_INDEX = "memory_embedding"


@dataclass(frozen=True)
class SchemaReport:
    """What :func:`ensure_schema` found and did.

    created : tuple of names created by this run (empty on a second run)
    indexes : tuple of (name, type, state) of every index after the run
    constraints : int, the number of constraints
    dimensions : int, the vector index's dimension
    """

    created: tuple[str, ...]
    indexes: tuple[tuple[str, str, str], ...]
    constraints: int
    dimensions: int


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
    statements.append((FULLTEXT_INDEX, cypher("schema/fulltext_index"), {}))
    statements.append((VECTOR_INDEX, cypher("schema/vector_index"), {"dimensions": dimensions}))
    return statements


def ensure_schema(driver: neo4j.Driver, database: str | None, dimensions: int,
                  timeout_s: int = 300) -> SchemaReport:
    """Create every constraint and index that is missing and wait until all are ONLINE.

    dimensions : int, the embedding dimension of the configured model (384 for all-MiniLM-L6-v2)
    timeout_s : int, seconds to wait for indexes to come ONLINE

    Raises Neo4jUnavailable when an index fails to come online, or when an existing vector index was built for
    another dimension (the message says how to rebuild it).
    """
    before = _names(driver, database)
    for name, statement, params in schema_statements(dimensions):
        if name in before:
            continue
        log.info("creating %s", name)
        driver.execute_query(statement, params, database_=database)
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
    return SchemaReport(created, indexes, len(constraints), found)
