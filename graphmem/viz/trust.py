"""Who trusts whom over a series of games (docs/queries.md#who-trusts-whom-over-a-series): the people of a series as
nodes, each ordered pair that judged one another as an edge, from the ``series_games`` and ``series_reputation``
analysis queries.

An edge observer -> observed carries what ``series_reputation`` counts over the games they played together:
``judgements`` (the observer's statements taking a side on the observed and approvals of teams the observed was on,
in the games in which the observer was not on the hidden side), ``right`` and ``accuracy`` = right / judgements (its
``weight``), ``trusts`` and ``trust_share`` = trusts / judgements, the memories the observer still holds about the
observed and those forgotten, and ``games`` together. A node carries the games the person played and on how many of
them they were on the hidden side. Every attribute is GraphML-legal (str, int, float, bool); a missing value (the
accuracy of a pair without judgements) is left out.

Drawn as PNG or SVG with matplotlib (:func:`draw_trust`), or as one self-contained HTML page (:func:`render_trust_html`:
the SVG inline and the table of edges, no script and no network).
"""

from __future__ import annotations

import html
import io
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

import neo4j
import networkx as nx

from graphmem.store.keys import person_key
from graphmem.viz.style import OTHER_SIDE_COLOUR, TRAITOR_SIDE_COLOUR
from graphmem.viz.told import edge_width

__all__ = ["build_trust_graph", "draw_trust", "fetch_trust_graph", "render_trust_html", "trust_colour"]

EDGE_COUNTS = ("games", "observed_hidden", "observer_hidden", "memories", "forgotten", "judgements", "right",
               "trusts")
"""The integer columns of ``series_reputation`` every edge keeps."""


def build_trust_graph(series: str, games: Iterable[Mapping[str, Any]],
                      reputation: Iterable[Mapping[str, Any]]) -> nx.MultiDiGraph:
    """The trust graph of ``series`` from the rows of the ``series_games`` and ``series_reputation`` queries.

    games : rows with players (list of names) and hidden_side (the names on the hidden side), one per game
    reputation : rows with observer, observed and the columns of ``series_reputation`` (accuracy and trust_share
        floats in [0, 1] or None)
    Returns a MultiDiGraph: nodes are people (named as ``series_reputation`` names them, the name a person was first
    met under) with games (int >= 1), hidden (games on the hidden side) and hidden_share (float in [0, 1]); one edge
    per ordered pair (key "trust") with the counts of :data:`EDGE_COUNTS`, accuracy, trust_share and weight (=
    accuracy) when there are judgements. Graph attributes: series, games (the series' games), judgements (total).
    """
    rows = list(reputation)
    graph = nx.MultiDiGraph(series=series)
    names: dict[str, str] = {}
    for row in rows:
        for name in (str(row["observer"]), str(row["observed"])):
            names.setdefault(person_key(name), name)
    played: dict[str, int] = {}
    hidden: dict[str, int] = {}
    count = 0
    for game in games:
        count += 1
        for name in game.get("players") or []:
            key = person_key(str(name))
            names.setdefault(key, str(name))
            played[key] = played.get(key, 0) + 1
        for name in game.get("hidden_side") or []:
            hidden[person_key(str(name))] = hidden.get(person_key(str(name)), 0) + 1
    for key, name in sorted(names.items(), key=lambda item: item[1].casefold()):
        games_played = played.get(key, 0)
        graph.add_node(name, games=games_played, hidden=hidden.get(key, 0),
                       hidden_share=hidden.get(key, 0) / games_played if games_played else 0.0)
    total = 0
    for row in rows:
        attrs: dict[str, Any] = {column: int(row.get(column) or 0) for column in EDGE_COUNTS}
        for column in ("accuracy", "trust_share"):
            if row.get(column) is not None:
                attrs[column] = float(row[column])
        if "accuracy" in attrs:
            attrs["weight"] = attrs["accuracy"]
        total += attrs["judgements"]
        graph.add_edge(str(row["observer"]), str(row["observed"]), key="trust", **attrs)
    graph.graph["games"] = count
    graph.graph["judgements"] = total
    return graph


def fetch_trust_graph(driver: neo4j.Driver, database: str | None, series: str) -> nx.MultiDiGraph:
    """:func:`build_trust_graph` for a stored series, read with the ``series_games`` and ``series_reputation``
    queries (READ transactions). The caller checks that the series is stored."""
    from graphmem.analysis import analysis_query, run_read

    games = run_read(driver, database, analysis_query("series_games"), {"series": series}).rows
    reputation = run_read(driver, database, analysis_query("series_reputation"),
                          {"series": series, "observer": None}).rows
    return build_trust_graph(series, games, reputation)


def _mix(a: str, b: str, share: float) -> str:
    """The colour ``share`` of the way from hex colour ``a`` to ``b`` (share in [0, 1])."""
    ra, ga, ba = (int(a[i:i + 2], 16) for i in (1, 3, 5))
    rb, gb, bb = (int(b[i:i + 2], 16) for i in (1, 3, 5))
    t = min(1.0, max(0.0, share))
    return "#{:02x}{:02x}{:02x}".format(*(round(x + (y - x) * t) for x, y in ((ra, rb), (ga, gb), (ba, bb))))


TRUSTING = "#1a9850"
"""Edge colour of a pair that only trusted (trust_share 1)."""
SUSPICIOUS = "#d73027"
"""Edge colour of a pair that only acted against (trust_share 0)."""
UNJUDGED = "#bbbbbb"


def trust_colour(trust_share: float | None) -> str:
    """The colour of an edge: red (only against) through amber to green (only trusting); grey without judgements."""
    if trust_share is None:
        return UNJUDGED
    if trust_share <= 0.5:
        return _mix(SUSPICIOUS, "#fdae61", trust_share * 2)
    return _mix("#fdae61", TRUSTING, (trust_share - 0.5) * 2)


def person_colour(hidden_share: float) -> str:
    """A person's fill: blue (never on the hidden side) to red (always on it)."""
    return _mix(OTHER_SIDE_COLOUR, TRAITOR_SIDE_COLOUR, hidden_share)


def layout(graph: nx.MultiDiGraph) -> dict[str, tuple[float, float]]:
    """People on a circle in name order, in [0, 1] x [0, 1] (y up). Deterministic."""
    order = sorted(graph.nodes, key=lambda n: str(n).casefold())
    count = len(order)
    return {str(name): (0.5 + (0.0 if count == 1 else 0.5) * math.cos(math.pi / 2 - 2 * math.pi * i / max(count, 1)),
                        0.5 + (0.0 if count == 1 else 0.5) * math.sin(math.pi / 2 - 2 * math.pi * i / max(count, 1)))
            for i, name in enumerate(order)}


def draw_trust(graph: nx.MultiDiGraph, path: Path | IO[str], fmt: str | None = None, dpi: int = 110) -> None:
    """Draw ``graph`` (see :func:`build_trust_graph`) to ``path`` (png or svg by its extension, or ``fmt``).

    People are filled from blue to red by the share of their games on the hidden side; an edge observer -> observed
    is drawn for each pair with judgements, as wide as their number (square-root scaled), coloured by trust_share
    (red: acted against them, green: trusted them) and labelled with the accuracy ("2/3"). Pairs without judgements
    are left out of the drawing (they stay in the graph and its GraphML).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    positions = layout(graph)
    figure = Figure(figsize=(11, 9))
    FigureCanvasAgg(figure)
    ax = figure.add_subplot(1, 1, 1)
    ax.set_axis_off()
    ax.set_title(f"Who trusts whom: series {graph.graph.get('series', '?')}, {graph.graph.get('games', 0)} games, "
                 f"{graph.graph.get('judgements', 0)} judgements")
    judged = [(u, v, d) for u, v, d in graph.edges(data=True) if d["judgements"] > 0]
    most = max((d["judgements"] for _, _, d in judged), default=1)
    for u, v, d in judged:
        nx.draw_networkx_edges(graph, positions, edgelist=[(u, v)], ax=ax, arrows=True, arrowstyle="-|>",
                               arrowsize=16, node_size=1500, connectionstyle="arc3,rad=0.12",
                               width=edge_width(d["judgements"], most),
                               edge_color=trust_colour(d.get("trust_share")))
        (x1, y1), (x2, y2) = positions[u], positions[v]
        # the label sits on the observer's side of the bent edge, a third of the way along
        lx, ly = x1 + (x2 - x1) * 0.33 + (y2 - y1) * 0.06, y1 + (y2 - y1) * 0.33 - (x2 - x1) * 0.06
        ax.text(lx, ly, f"{d['right']}/{d['judgements']}", fontsize=8, ha="center", va="center",
                bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.8})
    nodes = list(graph.nodes)
    nx.draw_networkx_nodes(graph, positions, nodelist=nodes, ax=ax, node_size=1500,
                           node_color=[person_colour(graph.nodes[n]["hidden_share"]) for n in nodes],
                           edgecolors="#222222", linewidths=1.5)
    nx.draw_networkx_labels(graph, {n: (x, y - 0.08) for n, (x, y) in positions.items()}, ax=ax, font_size=10,
                            labels={n: f"{n} ({graph.nodes[n]['hidden']}/{graph.nodes[n]['games']} hidden)"
                                    for n in nodes})
    handles: list[Any] = [
        Patch(color=person_colour(0.0), label="never on the hidden side"),
        Patch(color=person_colour(1.0), label="always on the hidden side"),
        Line2D([], [], color=trust_colour(1.0), linewidth=3, label="trusted them (trust share 1)"),
        Line2D([], [], color=trust_colour(0.5), linewidth=3, label="mixed (trust share 0.5)"),
        Line2D([], [], color=trust_colour(0.0), linewidth=3, label="acted against them (trust share 0)"),
    ]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=9,
              title="width = judgements; label = right/judgements")
    ax.set_xlim(-0.15, 1.15)
    ax.set_ylim(-0.18, 1.12)
    ax.set_aspect("equal")
    figure.tight_layout()
    if isinstance(path, Path):
        fmt = fmt or path.suffix.lstrip(".").lower()
    figure.savefig(path, dpi=dpi, format=fmt, bbox_inches="tight")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    return html.escape(str(value))


def render_trust_html(graph: nx.MultiDiGraph) -> str:
    """One self-contained HTML page of ``graph``: the drawing of :func:`draw_trust` as inline SVG and a table of every
    pair (observer, observed, games, judgements, right, accuracy, trust share, memories held and forgotten). No
    script, no network."""
    buffer = io.StringIO()
    draw_trust(graph, buffer, fmt="svg")  # matplotlib writes SVG text to a text buffer
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]  # the XML declaration and doctype are not allowed inside HTML
    columns = ("games", "observed_hidden", "judgements", "right", "accuracy", "trusts", "trust_share", "memories",
               "forgotten")
    rows = "\n".join(
        "<tr><td>" + html.escape(str(u)) + "</td><td>" + html.escape(str(v)) + "</td>"
        + "".join(f"<td>{_cell(d.get(c))}</td>" for c in columns) + "</tr>"
        for u, v, d in sorted(graph.edges(data=True), key=lambda e: (str(e[0]).casefold(), str(e[1]).casefold())))
    title = html.escape(f"Who trusts whom: series {graph.graph.get('series', '?')}")
    head = "".join(f"<th>{c.replace('_', ' ')}</th>" for c in ("observer", "observed", *columns))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 18px;
       color: #222; background: #fafafa; }}
figure {{ margin: 0; }} figure svg {{ max-width: 100%; height: auto; background: #fff; }}
table {{ border-collapse: collapse; font-size: 13px; margin-top: 12px; }}
th, td {{ border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: right; }}
th:nth-child(-n+2), td:nth-child(-n+2) {{ text-align: left; }}
</style>
</head>
<body>
<h1>{title}</h1>
<p>An arrow goes from an observer to a person they judged over the games they played together (docs/queries.md,
series_reputation): as wide as their judgements, green when they trusted them and red when they acted against them,
labelled right/judgements (right: trusting a player of the open side, or acting against one of the hidden side).</p>
<figure>{svg}</figure>
<table id="pairs">
<thead><tr>{head}</tr></thead>
<tbody>
{rows}
</tbody>
</table>
</body>
</html>
"""
