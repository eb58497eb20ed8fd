"""Bad requests against a running Neo4j that once gave a misleading message or a silent wrong result: a database
that does not exist, a --day that is not one of the game's days."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import neo4j
import pytest
from click.testing import CliRunner

from graphmem.cli import main
from tests.integration.helpers import clear
from tests.integration.test_query_game import write_game

pytestmark = pytest.mark.neo4j


@pytest.fixture(scope="module")
def game(driver: neo4j.Driver, schema: object) -> Iterator[str]:
    game = f"qa-robust-{uuid.uuid4().hex[:8]}"
    write_game(driver, game)  # phases on days 1 and 2
    yield game
    clear(driver, game)


def test_a_missing_database_is_named_with_the_existing_ones(neo4j_uri: str) -> None:
    missing = f"nodb{uuid.uuid4().hex[:6]}"
    result = CliRunner().invoke(main, ["--uri", neo4j_uri, "--database", missing, "games"])
    assert result.exit_code == 1, result.output
    assert f"Error: Neo4j at {neo4j_uri} has no database '{missing}' (its databases: " in result.output
    assert "neo4j" in result.output.split("its databases: ")[1]
    assert "cannot reach" not in result.output and "graphmem neo4j start" not in result.output


def test_viz_told_refuses_a_day_the_game_does_not_have(neo4j_uri: str, game: str, tmp_path: Path) -> None:
    out = tmp_path / "told.png"
    for day in ("99", "0", "99999999999999999999"):
        result = CliRunner().invoke(main, ["--uri", neo4j_uri, "viz", "told", "--game", game, "--day", day,
                                           "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert f"--day {day} is not a day of game '{game}' (its days are 1 to 2)" in result.output
        assert not out.exists()
    result = CliRunner().invoke(main, ["--uri", neo4j_uri, "viz", "told", "--game", game, "--day", "2",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.is_file()
