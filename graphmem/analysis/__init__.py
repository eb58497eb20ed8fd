"""The analysis library: the documented read-only queries of ``cypher/analysis/`` and how they are run.

- :mod:`graphmem.analysis.catalog`: the query names (paths under ``cypher/analysis/`` without ``.cypher``), their
  documentation, lookup with suggestions for a mistyped name.
- :mod:`graphmem.analysis.params`: typing ``key=value`` strings by the ``@param`` types of a query's header, with
  the header's defaults.
- :mod:`graphmem.analysis.runner`: running a query in a READ transaction (the database refuses writes).

Used by ``graphmem query`` and by the pictures of :mod:`graphmem.viz`. The names below are imported on first use
(PEP 562), so that ``graphmem.analysis.params`` (the CLI's option ranges) loads without the Neo4j driver.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphmem.analysis.catalog import analysis_query, analysis_query_names, describe
    from graphmem.analysis.params import bind_params, parse_assignments
    from graphmem.analysis.runner import QueryResult, run_read

_HOMES = {"analysis_query": "catalog", "analysis_query_names": "catalog", "describe": "catalog",
          "bind_params": "params", "parse_assignments": "params",
          "QueryResult": "runner", "run_read": "runner"}

__all__ = ["QueryResult", "analysis_query", "analysis_query_names", "bind_params",
           "describe", "parse_assignments", "run_read"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(f"graphmem.analysis.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
