"""The who-told-whom files: PNG and SVG drawings, GraphML and GEXF, and the self-contained HTML page (no Neo4j)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx
import pytest
from PIL import Image

from graphmem.viz.export import legal_copy, write_graph
from graphmem.viz.html import page_data, render_html
from graphmem.viz.static import draw_told
from graphmem.viz.told import build_told_graph
from tests.unit.viz.viz_rows import PLAYERS, TOLD


@pytest.fixture
def graph() -> nx.MultiDiGraph:
    return build_told_graph("g-1", PLAYERS, TOLD)


def test_png_is_a_real_non_blank_picture(graph: nx.MultiDiGraph, tmp_path: Path) -> None:
    path = tmp_path / "told.png"
    draw_told(graph, path)
    with Image.open(path) as image:
        assert image.format == "PNG" and image.width > 600 and image.height > 500
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50
    # the role colours are drawn: some pixels are the traitor red and the faithful blue
    rgb = {c for _, c in colours}
    assert (0xd7, 0x30, 0x1f) in rgb and (0x3b, 0x7d, 0xd8) in rgb


def test_svg_is_well_formed_and_names_the_players(graph: nx.MultiDiGraph, tmp_path: Path) -> None:
    path = tmp_path / "told.svg"
    draw_told(graph, path)
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    text = path.read_text()
    assert all(name in text for name in ("Ann", "Bob", "Cat", "Dan", "Eve"))


@pytest.mark.parametrize("kind", ["graphml", "gexf"])
def test_graph_files_read_back_with_the_same_players_edges_and_attributes(graph: nx.MultiDiGraph, tmp_path: Path,
                                                                          kind: str) -> None:
    path = tmp_path / f"told.{kind}"
    write_graph(graph, path, kind)
    back = nx.read_graphml(path) if kind == "graphml" else nx.read_gexf(path)
    assert sorted(back.nodes) == sorted(graph.nodes)
    assert back.number_of_edges() == graph.number_of_edges() == 6
    assert back.nodes["Bob"]["role"] == "faithful" and back.nodes["Bob"]["status"] == "murdered"
    assert int(back.nodes["Bob"]["eliminated_day"]) == 2
    messages = sorted(int(d["messages"]) for _, _, d in back.edges(data=True))
    assert messages == sorted(int(d["messages"]) for _, _, d in graph.edges(data=True))


def test_graph_files_drop_none_and_stringify_other_values() -> None:
    odd = nx.MultiDiGraph(game="g", day=None)
    odd.add_node("A", role=None, tags=["x"], n=1)
    odd.add_edge("A", "A", key="k", weight=None, data={"a": 1})
    legal = legal_copy(odd)
    assert legal.graph == {"game": "g"}
    assert legal.nodes["A"] == {"tags": "['x']", "n": 1}
    assert legal.edges["A", "A", "k"] == {"data": "{'a': 1}"}


def page_json(page: str) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="graph-data">(.*?)</script>', page, re.S)
    assert match is not None
    data: dict[str, object] = json.loads(match.group(1))
    return data


def test_html_page_is_self_contained(graph: nx.MultiDiGraph) -> None:
    page = render_html(graph)
    assert page.startswith("<!DOCTYPE html>")
    # nothing to fetch: no external scripts, styles, images, fonts or links
    assert not re.search(r"<(script|img|link|iframe|audio|video|source)[^>]*\s(src|href)\s*=", page, re.I)
    assert not re.search(r"@import|url\((?!#)", page)
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert urls == {"http://www.w3.org/2000/svg"}  # the SVG namespace name, never fetched
    assert "fetch(" not in page and "XMLHttpRequest" not in page and "import(" not in page
    assert page.count("<script") == page.count("</script>") == 3


def test_html_page_data_holds_players_positions_and_per_day_counts(graph: nx.MultiDiGraph) -> None:
    data = page_json(render_html(graph))
    assert data == json.loads(json.dumps(page_data(graph)))
    players = {p["name"]: p for p in data["players"]}  # type: ignore[attr-defined]
    assert sorted(players) == ["Ann", "Bob", "Cat", "Dan", "Eve"]
    assert players["Cat"]["status"] == "banished" and players["Ann"]["role"] == "traitor"
    assert all(0 <= p["x"] <= 1 and 0 <= p["y"] <= 1 for p in players.values())
    assert data["days"] == [1, 2]
    private = next(e for e in data["edges"] if e["channel"] == "private")  # type: ignore[attr-defined]
    assert private["by_day"] == {"1": 3, "2": 2} and private["messages"] == 5


def test_hostile_player_names_cannot_break_out_of_the_page() -> None:
    evil = '</script><script>alert(1)</script><!--'
    graph = build_told_graph("<b>g</b>", [{"player": evil, "role": "traitor", "status": "alive"}],
                             [{"teller": evil, "listener": evil, "day": 1, "channel": "private", "messages": 1}])
    page = render_html(graph)
    assert page.count("<script") == page.count("</script>") == 3
    assert "<b>g</b>" not in page and "&lt;b&gt;g&lt;/b&gt;" in page
    assert page_json(page)["players"][0]["name"] == evil  # type: ignore[index]
