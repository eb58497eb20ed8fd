"""GraphML and GEXF files of the who-told-whom graph, for Gephi and any networkx reader.

The graph of :func:`graphmem.viz.told.build_told_graph` already holds only GraphML-legal attribute types (str,
int, float, bool, no None); :func:`legal_copy` enforces it for any graph before writing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import networkx as nx

LEGAL = (str, int, float, bool)


def _legal(attrs: dict[str, Any]) -> dict[str, Any]:
    return {str(k): (v if isinstance(v, LEGAL) else str(v)) for k, v in attrs.items() if v is not None}


def legal_copy(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy of ``graph`` whose graph, node and edge attributes are str, int, float or bool (None dropped, any
    other value turned into its string)."""
    copy = nx.MultiDiGraph(**_legal(dict(graph.graph)))
    copy.add_nodes_from((str(n), _legal(dict(d))) for n, d in graph.nodes(data=True))
    copy.add_edges_from((str(u), str(v), k, _legal(dict(d))) for u, v, k, d in graph.edges(keys=True, data=True))
    return copy


def write_graph(graph: nx.MultiDiGraph, path: Path, kind: str) -> None:
    """Write ``graph`` as ``kind`` ("graphml" or "gexf") to ``path``."""
    legal = legal_copy(graph)
    if kind == "graphml":
        nx.write_graphml(legal, path, encoding="utf-8", prettyprint=True)
    elif kind == "gexf":
        nx.write_gexf(legal, path, encoding="utf-8", prettyprint=True)
    else:
        raise ValueError(f"not a graph file kind: {kind}")
