"""Planning the service's queries before its first request (:meth:`graphmem.service.MemoryService.warm_up`).

Neo4j plans a query the first time it runs and caches the plan per parameter types. A process that only asked for
``EXPLAIN`` still left the first live batch at 3.8 s and the first recall at 2.2 s after ``/ready``, against 0.5 s and
0.08 s later; running each query for real, on no game and in a transaction rolled back, leaves nothing stored and
every plan cached.
"""

from __future__ import annotations

import itertools
from typing import Any

import neo4j

from graphmem.store.queries import Query, load, query_names

WARM_QUERIES = ("ingest/", "recall/", "jobs/decay", "tokens/", "stats/list_games", "idempotency/")
"""The queries :func:`plan_queries` runs (by name prefix): a live batch, its decay, a recall, the token check, a
write sent with an Idempotency-Key."""
_WARM_VALUES: dict[str, Any] = {"STRING": "graphmem-warm-up", "INTEGER": 0, "FLOAT": 0.0, "BOOLEAN": False,
                                "MAP": {"warm": 0}, "LIST<STRING>": ["graphmem-warm-up"], "LIST<INTEGER>": [0],
                                "LIST<FLOAT>": [0.0], "LIST<MAP>": [{"warm": 0}]}
"""A value of each documented parameter type that matches no stored game."""


def warm_params(query: Query) -> list[dict[str, Any]]:
    """The parameter maps ``query`` is planned with: Neo4j caches a plan per parameter types, and a null is a type of
    its own, so each combination of its optional (null by default) parameters, null or given (at most eight: the
    recall's context query is run with no ``known`` candidates first, with them after)."""
    given = {p.name: _WARM_VALUES.get(p.type) for p in query.params}
    optional = [p.name for p in query.params if p.default == "null"][:3]
    return [{**given, **{name: None for name in nulls}}
            for n in range(len(optional) + 1) for nulls in itertools.combinations(optional, n)]


def plan_queries(driver: neo4j.Driver, database: str | None) -> None:
    """Run every query of :data:`WARM_QUERIES` once per :func:`warm_params` map, on no game, each in a transaction
    rolled back: nothing is written, and Neo4j has planned them. A query Neo4j refuses after planning (identifiers
    filled in at run time, values it rejects) is planned all the same and passed over."""
    with driver.session(database=database, notifications_min_severity="OFF") as session:
        for name in query_names():
            if name.startswith(WARM_QUERIES):
                for params in warm_params(load(name)):
                    tx = session.begin_transaction()
                    try:
                        tx.run(load(name).text, params).consume()
                    except neo4j.exceptions.Neo4jError:
                        pass
                    finally:
                        tx.rollback()
