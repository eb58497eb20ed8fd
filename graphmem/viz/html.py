"""A self-contained, interactive HTML page of the who-told-whom graph.

The page is one file that works offline: the graph is inline JSON (``<script type="application/json">``), the
drawing code is the small vanilla JavaScript of ``told.js`` (shipped beside this module, no library), styles are
inline and fonts are the system's, so opening it fetches nothing. Node positions come from
:func:`graphmem.viz.told.layout` and are baked in; the script draws one SVG group per player (``data-player``),
one path per edge, and adds hover tooltips, highlight on click, dragging and a day filter. Script errors are
collected in ``window.__errors`` and the root element gets ``data-ready="1"`` once the drawing is done (the browser
test reads both).
"""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

import networkx as nx

from graphmem.viz.style import KIND_COLOURS, KIND_CURVATURE, KIND_DASHES, KIND_LABELS
from graphmem.viz.told import KINDS, layout, legend_roles, player_colour

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<script>
window.__errors = [];
window.addEventListener("error", function (e) {{ window.__errors.push(String(e.message || e)); }});
window.addEventListener("unhandledrejection", function (e) {{ window.__errors.push(String(e.reason)); }});
</script>
<style>
body {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 0;
       color: #222; background: #fafafa; }}
header {{ padding: 10px 18px; display: flex; gap: 18px; align-items: baseline; flex-wrap: wrap; }}
h1 {{ font-size: 18px; margin: 0; }}
main {{ display: flex; gap: 12px; padding: 0 12px 12px; }}
svg#told {{ flex: 1; min-width: 0; height: auto; background: #fff; border: 1px solid #ddd; border-radius: 6px;
           user-select: none; touch-action: none; }}
aside {{ width: 240px; font-size: 13px; line-height: 1.6; }}
.legend-line {{ display: inline-block; width: 34px; height: 0; border-top-width: 3px; vertical-align: middle;
               margin-right: 6px; }}
.legend-dot {{ display: inline-block; width: 14px; height: 14px; border: 1.5px solid #222; vertical-align: middle;
              margin-right: 6px; }}
.player {{ cursor: grab; }}
.player .shape {{ stroke: #222; stroke-width: 1.5; }}
.player.selected .shape {{ stroke: #000; stroke-width: 4; }}
.player .cross {{ stroke: #111; stroke-width: 4; stroke-linecap: round; }}
.player .label {{ font-size: 14px; paint-order: stroke; stroke: #fff; stroke-width: 4; fill: #222; }}
.edge {{ opacity: 0.8; }}
.edge:hover {{ opacity: 1; }}
.dim {{ opacity: 0.12; }}
#tooltip {{ position: fixed; display: none; pointer-events: none; background: #222; color: #fff; padding: 6px 9px;
           border-radius: 4px; font-size: 13px; max-width: 320px; z-index: 10; }}
</style>
</head>
<body>
<header>
<h1>{heading}</h1>
<label>Edges: <select id="day"><option value="all">every day</option></select></label>
<span id="shown"></span>
</header>
<main>
<svg id="told" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{heading}"></svg>
<aside>
<b>Players</b><br>
{roles}
<span class="legend-dot" style="border-radius: 50%; background: #fff"></span>alive<br>
<span class="legend-dot" style="border-radius: 50%; background: #fff; text-align: center; line-height: 12px">&#x2715;</span>murdered<br>
<span class="legend-dot" style="background: #fff"></span>banished<br>
<br><b>Statements heard</b> (width = messages)<br>
{kinds}
<br>Hover for details, click a player to highlight their conversations, drag to move.
</aside>
</main>
<div id="tooltip"></div>
<script type="application/json" id="graph-data">{data}</script>
<script>
{script}
</script>
</body>
</html>
"""


def page_data(graph: nx.MultiDiGraph) -> dict[str, Any]:
    """The JSON the page draws: players (with baked positions in [0, 1], y up), edges, days and the style."""
    positions = layout(graph)
    players = []
    for name, attrs in graph.nodes(data=True):
        x, y = positions[str(name)]
        players.append({"name": str(name), "role": attrs.get("role", "unknown"), "colour": player_colour(graph, name),
                        "profile": attrs.get("profile", ""),
                        "status": attrs.get("status", "alive"), "eliminated_day": attrs.get("eliminated_day"),
                        "x": round(x, 4), "y": round(y, 4)})
    edges = []
    days: set[int] = set()
    for source, target, attrs in graph.edges(data=True):
        by_day = {str(k): int(v) for k, v in json.loads(attrs.get("by_day", "{}")).items()}
        days.update(int(d) for d in by_day)
        edges.append({"source": str(source), "target": str(target), "channel": attrs["channel"],
                      "kind": attrs["kind"], "messages": int(attrs["messages"]), "days": attrs.get("days", ""),
                      "by_day": by_day})
    return {"game": graph.graph.get("game"), "day": graph.graph.get("day"), "days": sorted(days),
            "players": players, "edges": edges,
            "style": {"kind_colours": KIND_COLOURS, "kind_curvature": KIND_CURVATURE,
                      "kind_dashes": {k: list(v) if v else None for k, v in KIND_DASHES.items()}}}


def _script_json(data: dict[str, Any]) -> str:
    """JSON safe inside a <script> element: '<', '>' and '&' escaped, so no '</script>' or '<!--' can occur."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def told_script() -> str:
    """The page's JavaScript (``told.js``, shipped in the package)."""
    return resources.files("graphmem.viz").joinpath("told.js").read_text(encoding="utf-8")


def _css_dash(kind: str) -> str:
    dashes = KIND_DASHES[kind]
    return "solid" if dashes is None else "dashed" if dashes[0] > 3 else "dotted"


def render_html(graph: nx.MultiDiGraph) -> str:
    """The whole page for ``graph`` (see :func:`graphmem.viz.told.build_told_graph`), as one string."""
    day = graph.graph.get("day")
    heading = (f"Who told whom — game {graph.graph.get('game', '?')}, "
               f"{'day ' + str(day) if day is not None else 'every day'}")
    roles = "".join(f'<span class="legend-dot" style="border-radius: 50%; background: {colour}"></span>'
                    f'{html.escape(role)}<br>\n' for role, colour in legend_roles(graph))
    kinds = []
    for kind in KINDS:
        kinds.append(f'<span class="legend-line" style="border-top-style: {_css_dash(kind)}; '
                     f'border-color: {KIND_COLOURS[kind]}">'
                     f'</span>{html.escape(KIND_LABELS[kind])}<br>\n')
    script = told_script().replace("</script", "<\\/script")
    return _PAGE.format(title=html.escape(heading), heading=html.escape(heading), roles=roles, kinds="".join(kinds),
                        data=_script_json(page_data(graph)), script=script)
