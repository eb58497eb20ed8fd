"""Pictures of a real game: the who-told-whom PNG, GraphML and GEXF, and a player's decay chart."""

from __future__ import annotations

from pathlib import Path

import neo4j
import networkx as nx
import pytest
from click.testing import CliRunner
from PIL import Image

from graphmem.cli import main
from graphmem.ingest.pipeline import IngestSummary

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


@pytest.fixture
def game(real_games: IngestSummary) -> str:
    return sorted(g.game for g in real_games.per_game)[-1]


def players_of(driver: neo4j.Driver, game: str) -> list[str]:
    return [r[0] for r in driver.execute_query("MATCH (p:Player {game: $game}) RETURN p.name ORDER BY p.name",
                                               game=game).records]


def told_count(driver: neo4j.Driver, game: str) -> int:
    return int(driver.execute_query("MATCH (:Player {game: $game})-[t:TOLD]->() RETURN count(t)",
                                    game=game).records[0][0])


def viz(uri: str, *args: str) -> str:
    result = CliRunner().invoke(main, ["--uri", uri, "viz", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_png_of_a_real_game(neo4j_uri: str, game: str, tmp_path: Path) -> None:
    out = tmp_path / "told.png"
    viz(neo4j_uri, "told", "--game", game, "--out", str(out))
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width > 600 and image.height > 500
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 100


@pytest.mark.parametrize("kind", ["graphml", "gexf"])
def test_graph_files_of_a_real_game_hold_every_player_and_message(neo4j_uri: str, driver: neo4j.Driver, game: str,
                                                                 tmp_path: Path, kind: str) -> None:
    out = tmp_path / f"told.{kind}"
    viz(neo4j_uri, "told", "--game", game, "--out", str(out))
    back = nx.read_graphml(out) if kind == "graphml" else nx.read_gexf(out)
    assert sorted(back.nodes) == players_of(driver, game)
    assert sum(int(d["messages"]) for _, _, d in back.edges(data=True)) == told_count(driver, game) > 0
    assert {d["role"] for _, d in back.nodes(data=True)} == {"faithful", "traitor"}


def test_a_day_of_a_real_game(neo4j_uri: str, driver: neo4j.Driver, game: str, tmp_path: Path) -> None:
    out = tmp_path / "day1.graphml"
    viz(neo4j_uri, "told", "--game", game, "--day", "1", "--out", str(out))
    back = nx.read_graphml(out)
    day1 = driver.execute_query("MATCH (:Player {game: $game})-[t:TOLD {day: 1}]->() RETURN count(t)",
                                game=game).records[0][0]
    assert back.number_of_nodes() == len(players_of(driver, game))
    assert sum(int(d["messages"]) for _, _, d in back.edges(data=True)) == day1 > 0


def test_decay_chart_of_a_real_player(neo4j_uri: str, driver: neo4j.Driver, game: str, tmp_path: Path) -> None:
    player = players_of(driver, game)[0]
    out = tmp_path / "decay.png"
    text = viz(neo4j_uri, "decay", "--game", game, "--player", player, "--out", str(out))
    memories = driver.execute_query("MATCH (m:Memory {game: $game, owner: $player}) RETURN count(m)",
                                    game=game, player=player).records[0][0]
    assert f"{memories} memories of {player}" in text and memories > 0
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width > 800 and image.height > 400
