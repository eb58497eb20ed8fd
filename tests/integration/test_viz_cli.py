"""``graphmem viz told`` and ``graphmem viz decay`` against a real Neo4j (the hand-made game of test_query_game)."""

from __future__ import annotations

import uuid
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path

import neo4j
import networkx as nx
import pytest
from click.testing import CliRunner, Result
from PIL import Image

from graphmem.cli import main
from graphmem.viz.decay import fetch_decay_chart
from graphmem.viz.told import fetch_told_graph
from tests.integration.helpers import clear
from tests.integration.test_query_game import EVERYONE, write_game

pytestmark = pytest.mark.neo4j


@pytest.fixture(scope="module")
def game(driver: neo4j.Driver, schema: object) -> Iterator[str]:
    game = f"qa-viz-{uuid.uuid4().hex[:8]}"
    write_game(driver, game)
    yield game
    clear(driver, game)


@pytest.fixture
def viz(neo4j_uri: str) -> Callable[..., Result]:
    def run(*args: str, uri: str = neo4j_uri) -> Result:
        return CliRunner().invoke(main, ["--uri", uri, "viz", *args])
    return run




def test_the_told_graph_is_read_from_told_edges(driver: neo4j.Driver, game: str) -> None:
    graph = fetch_told_graph(driver, None, game)
    assert sorted(graph.nodes) == EVERYONE and graph.number_of_edges() == 5
    assert graph.nodes["Cat"]["status"] == "banished" and graph.nodes["Ann"]["role"] == "traitor"
    assert graph.edges["Ann", "Bob", "private"]["messages"] == 1
    assert graph.graph["messages"] == 5
    day2 = fetch_told_graph(driver, None, game, day=2)
    assert list(day2.edges(keys=True)) == [("Ann", "Dan", "roundtable")] and day2.graph["day"] == 2


@pytest.mark.parametrize("kind", ["html", "png", "svg", "graphml", "gexf"])
def test_viz_told_writes_every_kind(viz: Callable[..., Result], game: str, tmp_path: Path, kind: str) -> None:
    out = tmp_path / f"told.{kind}"
    result = viz("told", "--game", game, "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "4 players, 5 edges, 5 messages" in result.output
    if kind == "png":
        with Image.open(out) as image:
            assert image.format == "PNG" and image.width > 600
    elif kind == "svg":
        assert ET.parse(out).getroot().tag.endswith("svg")
    elif kind in ("graphml", "gexf"):
        back = nx.read_graphml(out) if kind == "graphml" else nx.read_gexf(out)
        assert sorted(back.nodes) == EVERYONE and back.number_of_edges() == 5
    else:
        page = out.read_text(encoding="utf-8")
        assert page.count('"name":"') == 4 and game in page


def test_viz_told_filters_by_day(viz: Callable[..., Result], game: str, tmp_path: Path) -> None:
    out = tmp_path / "day2.graphml"
    assert viz("told", "--game", game, "--day", "2", "--out", str(out)).exit_code == 0
    back = nx.read_graphml(out)
    assert back.number_of_nodes() == 4 and back.number_of_edges() == 1 and back.graph["day"] == 2


def test_bad_outputs_exit_2_before_connecting(viz: Callable[..., Result], tmp_path: Path) -> None:
    nowhere = "bolt://127.0.0.1:1"  # nothing listens: the check must come first
    result = viz("told", "--game", "g", "--out", str(tmp_path / "told.pdf"), uri=nowhere)
    assert result.exit_code == 2 and "'.pdf' is not a known output kind" in result.output
    result = viz("told", "--game", "g", "--out", str(tmp_path / "no" / "told.png"), uri=nowhere)
    assert result.exit_code == 2 and "does not exist" in result.output
    result = viz("decay", "--game", "g", "--player", "A", "--out", str(tmp_path / "d.html"), uri=nowhere)
    assert result.exit_code == 2 and ".png, .svg" in result.output
    assert list(tmp_path.iterdir()) == []


def test_unknown_game_or_player_exits_1(viz: Callable[..., Result], game: str, tmp_path: Path) -> None:
    result = viz("told", "--game", "no-such-game", "--out", str(tmp_path / "t.png"))
    assert result.exit_code == 1 and "no game 'no-such-game'" in result.output
    result = viz("decay", "--game", game, "--player", "Zed", "--out", str(tmp_path / "d.png"))
    assert result.exit_code == 1 and "no player 'Zed'" in result.output and "Ann, Bob, Cat, Dan" in result.output
    assert list(tmp_path.iterdir()) == []


def test_decay_chart_reconstructs_rehearsals_and_draws(driver: neo4j.Driver, viz: Callable[..., Result], game: str,
                                                       tmp_path: Path) -> None:
    chart = fetch_decay_chart(driver, None, game, "Dan")
    assert len(chart.curves) == 8 and chart.curve == "exponential" and chart.decayed_to == 5
    assert chart.bands.vague == 0.15 and chart.day_of_phase[4] == 2
    rehearsed = next(c for c in chart.curves if c.memory.endswith("/Dan/e3"))
    assert rehearsed.rehearsal == 3 and rehearsed.exact and rehearsed.phases == (1, 2, 3, 3, 4, 5)
    assert rehearsed.strengths[3] == pytest.approx(0.9) and rehearsed.strengths[2] < 0.9
    flashbulb = next(c for c in chart.curves if c.flashbulb)
    assert min(flashbulb.strengths) >= 0.8
    out = tmp_path / "decay.png"
    result = viz("decay", "--game", game, "--player", "Dan", "--out", str(out))
    assert result.exit_code == 0, result.output
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width > 800 and image.height > 400
