"""The jobs (consolidation, contradictions), the analysis queries and the who-told-whom picture: engine key only."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import Response

from graphmem.jobs.consolidation import ConsolidationReport
from graphmem.jobs.contradictions import ContradictionReport
from graphmem.server.deps import AllTargets, EngineOnly, Service
from graphmem.server.limits import Utf8JsonRoute
from graphmem.server.models import Count, QueryBody, QueryInfo, QueryRows

router = APIRouter(dependencies=[EngineOnly], route_class=Utf8JsonRoute)


@router.post("/games/{game}/consolidate", tags=["jobs"], response_model=ConsolidationReport)
def consolidate(game: str, memory: Service, player: str | None = None, dry_run: bool = False) -> Any:
    """Consolidate similar memories into summaries (docs/jobs.md#consolidation)."""
    return memory.consolidate(game, player, dry_run=dry_run)


@router.post("/games/{game}/contradictions", tags=["jobs"], response_model=ContradictionReport)
def contradictions(game: str, memory: Service, player: str | None = None, dry_run: bool = False) -> Any:
    """Detect and store contradictions between memories (docs/jobs.md#contradictions)."""
    return memory.contradictions(game, player, dry_run=dry_run)


@router.get("/queries", tags=["queries"])
def queries() -> list[QueryInfo]:
    """The analysis queries: name, purpose, parameters, columns."""
    from graphmem.analysis import analysis_query, analysis_query_names

    out = []
    for name in analysis_query_names():
        q = analysis_query(name)
        out.append(QueryInfo(name=name, purpose=q.purpose, returns=list(q.returns),
                             params=[QueryInfo.Param(name=p.name, type=p.type, required=p.required, doc=p.doc)
                                     for p in q.params]))
    return out


@router.post("/queries/{name}", tags=["queries"])
def run_query(name: str, request: QueryBody, every: AllTargets) -> QueryRows:
    """Run an analysis query read-only: {columns, rows} (on the target of its ``game`` or ``series``; with ``all``,
    for every game or series of every target, merged: :meth:`graphmem.targets.Targets.query_all`)."""
    params = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in request.params.items()}
    result = every.query_all(name, params) if request.all else every.query(name, params)
    return QueryRows(query=name, columns=list(result.columns), rows=result.rows)


TOLD_CONTENT: dict[int | str, dict[str, Any]] = {200: {"content": {
    "text/html": {"schema": {"type": "string", "description": "a self-contained interactive page"}},
    "application/graphml+xml": {"schema": {"type": "string", "description": "GraphML"}}}}}


@router.get("/games/{game}/told", tags=["queries"], response_class=Response, responses=TOLD_CONTENT)
def told(game: str, memory: Service, format: Literal["html", "graphml"] = "html",
         day: Count | None = None) -> Response:
    """Who told whom: a self-contained interactive HTML page, or GraphML (for Gephi, networkx)."""
    graph = memory.told_graph(game, day)
    if format == "html":
        from graphmem.viz.html import render_html

        return Response(render_html(graph), media_type="text/html; charset=utf-8")
    from graphmem.viz.export import write_graph

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "told.graphml"
        write_graph(graph, path, "graphml")
        return Response(path.read_bytes(), media_type="application/graphml+xml")
