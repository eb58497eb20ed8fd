"""PNG and SVG drawings of the who-told-whom graph (matplotlib through networkx's drawing functions).

Players are filled by side (the game's traitor-side roles red, every other role blue; the legend names the game's
roles) and shaped by fate (alive: circle; murdered: circle with a black cross; banished: square); an edge's width
grows with its number of messages; private edges are solid orange, public (round table) edges dashed grey,
traitors' meeting edges dotted dark red, each kind bent by its own amount so that parallel edges stay apart. Uses
matplotlib's object API (no pyplot, no GUI backend).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import networkx as nx

from graphmem.viz.style import FATE_LABELS, KIND_COLOURS, KIND_CURVATURE, KIND_DASHES, KIND_LABELS
from graphmem.viz.told import KINDS, edge_width, layout, legend_roles, player_colour

NODE_SIZE = 1400


def _linestyle(kind: str) -> tuple[float, tuple[float, ...]] | Literal["solid"]:
    """matplotlib's line style of an edge kind: solid, or (offset, (on, off)) in points."""
    dashes = KIND_DASHES[kind]
    return (0.0, tuple(float(d) for d in dashes)) if dashes else "solid"


def _title(graph: nx.MultiDiGraph) -> str:
    day = graph.graph.get("day")
    when = f"day {day}" if day is not None else "every day"
    return f"Who told whom: game {graph.graph.get('game', '?')}, {when} ({graph.graph.get('messages', 0)} messages)"


def draw_told(graph: nx.MultiDiGraph, path: Path, dpi: int = 110) -> None:
    """Draw ``graph`` (see :func:`graphmem.viz.told.build_told_graph`) to ``path``; the format (png or svg) follows
    the extension."""
    from matplotlib import rc_context

    with rc_context({"lines.scale_dashes": False}):  # dash lengths in points, whatever the edge's width
        _draw_told(graph, path, dpi)


def _draw_told(graph: nx.MultiDiGraph, path: Path, dpi: int) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    positions = layout(graph)
    figure = Figure(figsize=(11, 9))
    FigureCanvasAgg(figure)
    ax = figure.add_subplot(1, 1, 1)
    ax.set_axis_off()
    ax.set_title(_title(graph))
    most = max((d["messages"] for _, _, d in graph.edges(data=True)), default=1)
    for kind in KINDS:
        edges = [(u, v, k) for u, v, k, d in graph.edges(keys=True, data=True) if d["kind"] == kind]
        if not edges:
            continue
        nx.draw_networkx_edges(
            graph, positions, edgelist=edges, ax=ax, edge_color=KIND_COLOURS[kind],
            width=[edge_width(graph.edges[e]["messages"], most) for e in edges],
            style=_linestyle(kind), alpha=0.75, arrows=True, arrowstyle="-|>", arrowsize=14,
            node_size=NODE_SIZE, connectionstyle=f"arc3,rad={KIND_CURVATURE[kind]}")
    for fate, shape in (("alive", "o"), ("murdered", "o"), ("banished", "s")):
        nodes = [n for n, d in graph.nodes(data=True) if d.get("status", "alive") == fate]
        if not nodes:
            continue
        nx.draw_networkx_nodes(graph, positions, nodelist=nodes, ax=ax, node_shape=shape, node_size=NODE_SIZE,
                               node_color=[player_colour(graph, n) for n in nodes],
                               edgecolors="#222222", linewidths=1.5)
        if fate == "murdered":
            ax.scatter([positions[n][0] for n in nodes], [positions[n][1] for n in nodes], marker="x",
                       s=NODE_SIZE * 0.55, c="#111111", linewidths=3, zorder=3)
    nx.draw_networkx_labels(graph, {n: (x, y - 0.075) for n, (x, y) in positions.items()}, ax=ax, font_size=10)
    handles = [Line2D([], [], marker="o", linestyle="", markersize=11, markerfacecolor=colour,
                      markeredgecolor="#222222", label=role) for role, colour in legend_roles(graph)]
    handles += [Line2D([], [], marker=m, linestyle="", markersize=11, markerfacecolor="white",
                       markeredgecolor="#222222", label=FATE_LABELS[fate])
                for fate, m in (("alive", "o"), ("murdered", "X"), ("banished", "s"))]
    handles += [Line2D([], [], color=KIND_COLOURS[k], linewidth=2.5, linestyle=_linestyle(k), label=KIND_LABELS[k])
                for k in KINDS]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=9,
              title="width = messages")
    ax.set_xlim(-0.12, 1.12)
    ax.set_ylim(-0.15, 1.12)
    ax.set_aspect("equal")
    figure.tight_layout()
    figure.savefig(path, dpi=dpi, format=path.suffix.lstrip(".").lower(), bbox_inches="tight")
