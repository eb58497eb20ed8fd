"""Running analysis queries read-only, and checking the game they ask about.

Every query runs through ``driver.execute_query(..., routing_=RoutingControl.READ)``: a transaction in read access
mode, in which Neo4j itself refuses any write (``Neo.ClientError.Statement.AccessMode``), whatever the query says.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import neo4j
from neo4j import RoutingControl
from neo4j.exceptions import DriverError, Neo4jError

from graphmem.errors import BadParameterValue, Neo4jUnavailable, QueryFailed, WriteRefused
from graphmem.store.queries import Query

ACCESS_MODE_REFUSED = "Neo.ClientError.Statement.AccessMode"
ARGUMENT_REFUSED = "Neo.ClientError.Statement.ArgumentError"
"""Neo4j refused a parameter's value (e.g. a negative LIMIT): a usage error, the value came from the user."""


@dataclass(frozen=True)
class QueryResult:
    """What a query returned.

    columns : tuple of str, the RETURN columns in order (known even when there are no rows)
    rows : list of dict {column: value}, values plain Python (str, int, float, bool, None, list, dict)
    """

    columns: tuple[str, ...]
    rows: list[dict[str, Any]]


def plain(value: Any) -> Any:
    """``value`` as plain Python: graph nodes and relationships become their property maps, paths lists of them,
    temporal values ISO strings; lists and maps are converted item by item."""
    if isinstance(value, (neo4j.graph.Node, neo4j.graph.Relationship)):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, neo4j.graph.Path):
        return [plain(node) for node in value.nodes]
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if hasattr(value, "iso_format"):
        return value.iso_format()
    if isinstance(value, (_dt.date, _dt.time, _dt.datetime, _dt.timedelta)):
        return str(value)
    return value


def run_read(driver: neo4j.Driver, database: str | None, query: Query,
             params: Mapping[str, Any]) -> QueryResult:
    """Run ``query`` with ``params`` in a READ transaction and return its columns and rows.

    Raises WriteRefused when the query tries to write (Neo4j refuses it in read access mode), BadParameterValue
    when Neo4j refuses a parameter's value, QueryFailed for any other error Neo4j reports, Neo4jUnavailable when
    the server cannot be reached.
    """
    try:
        records, _, keys = driver.execute_query(query.text, dict(params), database_=database,
                                                routing_=RoutingControl.READ)
    except Neo4jError as e:
        name = query.name.removeprefix("analysis/")
        if e.code == ACCESS_MODE_REFUSED:
            raise WriteRefused(f"query '{name}' tries to write, and analysis queries run read-only: "
                               f"Neo4j refused it ({e.message})") from e
        if e.code == ARGUMENT_REFUSED:
            given = ", ".join(f"{k}={v!r}" for k, v in params.items() if k != "game")
            raise BadParameterValue(f"query '{name}': Neo4j refused a parameter value ({given}): {e.message}") from e
        raise QueryFailed(f"query '{name}' failed: {e.message or e}") from e
    except DriverError as e:
        raise Neo4jUnavailable(f"lost the connection to Neo4j while running '{query.name}': {e}") from e
    return QueryResult(tuple(keys), [{key: plain(record[key]) for key in keys} for record in records])
