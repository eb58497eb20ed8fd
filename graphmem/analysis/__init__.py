"""The analysis library: the documented read-only queries of ``cypher/analysis/`` and how they are run.

- :mod:`graphmem.analysis.catalog`: the query names (paths under ``cypher/analysis/`` without ``.cypher``), their
  documentation, lookup with suggestions for a mistyped name.
- :mod:`graphmem.analysis.params`: typing ``key=value`` strings by the ``@param`` types of a query's header, with
  the header's defaults.
- :mod:`graphmem.analysis.runner`: running a query in a READ transaction (the database refuses writes).

Used by ``graphmem query`` and by the pictures of :mod:`graphmem.viz`.
"""

from __future__ import annotations

from graphmem.analysis.catalog import analysis_query, analysis_query_names, describe
from graphmem.analysis.params import bind_params, parse_assignments
from graphmem.analysis.runner import QueryFailed, QueryResult, WriteRefused, run_read

__all__ = ["QueryFailed", "QueryResult", "WriteRefused", "analysis_query", "analysis_query_names", "bind_params",
           "describe", "parse_assignments", "run_read"]
