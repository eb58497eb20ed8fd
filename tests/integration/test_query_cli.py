"""``graphmem query`` against a real Neo4j: the three formats, typed parameters, unknown games, refused writes."""

from __future__ import annotations

import csv
import functools
import io
import json
import uuid
from collections.abc import Callable, Iterator

import neo4j
import pytest
from click.testing import Result

import graphmem.analysis
from graphmem.analysis import analysis_query, run_read
from graphmem.errors import WriteRefused
from graphmem.store.queries import Query, parse_header
from tests.integration.helpers import clear
from tests.integration.test_query_game import write_game

pytestmark = pytest.mark.neo4j

WRITING = """// A query that tries to write (for the tests only).
// @param game: STRING  the game id
// @returns n
CREATE (n:AnalysisWriteProbe {game: $game}) RETURN n.game AS n
"""


@pytest.fixture(scope="module")
def game(driver: neo4j.Driver, schema: object) -> Iterator[str]:
    game = f"qa-cli-{uuid.uuid4().hex[:8]}"
    write_game(driver, game)
    yield game
    clear(driver, game)


@pytest.fixture
def invoke(cli: Callable[..., Result]) -> Callable[..., Result]:
    """``graphmem query ARGS`` through the shared ``cli`` fixture (tests/integration/conftest.py)."""
    return functools.partial(cli, "query")


def test_table_is_a_rich_table_with_every_column_and_a_row_count(invoke: Callable[..., Result], game: str) -> None:
    result = invoke("who_told_whom", "-p", f"game={game}")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = next(line for line in lines if "teller" in line)
    for column in analysis_query("who_told_whom").returns:
        assert column in header
    assert any(line.startswith("┏") for line in lines) and "5 rows" in result.output
    assert sum(1 for line in lines if line.startswith("│ Bob")) == 3


def test_json_is_a_list_of_objects_with_typed_values(invoke: Callable[..., Result], game: str) -> None:
    result = invoke("who_told_whom", "-p", f"game={game}", "-p", "day=2", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{"teller": "Ann", "teller_role": "traitor", "listener": "Dan",
                                          "listener_role": "faithful", "day": 2, "channel": "roundtable",
                                          "messages": 1}]
    result = invoke("accusation_network", "-p", f"game={game}", "-p", "include_murder_votes=yes", "--format", "json")
    assert any(r["kind"] == "murder vote" for r in json.loads(result.output))


def test_csv_has_the_documented_header_and_one_line_per_row(invoke: Callable[..., Result], game: str) -> None:
    result = invoke("false_memories", "-p", f"game={game}", "--format", "csv")
    assert result.exit_code == 0, result.output
    reader = csv.DictReader(io.StringIO(result.output))
    assert tuple(reader.fieldnames or ()) == analysis_query("false_memories").returns
    got = list(reader)
    assert [r["owner"] for r in got] == ["Cat", "Dan"]
    assert json.loads(got[1]["fabricated_details"])[0]["original"] == "Bob"
    assert got[0]["misattributed"] == "true" and got[1]["lost_details"] == '["when"]'
    empty = invoke("information_boundary", "-p", f"game={game}", "--format", "csv")
    assert empty.exit_code == 0 and empty.output.splitlines() == [
        ",".join(analysis_query("information_boundary").returns)]


def test_an_unknown_game_exits_1_listing_stored_games(invoke: Callable[..., Result], game: str) -> None:
    result = invoke("players", "-p", f"game={game}x")
    assert result.exit_code == 1
    assert f"no game '{game}x' is stored (" in result.output and game in result.output.split("stored (")[1]


def test_usage_errors_exit_2_with_a_live_neo4j_too(invoke: Callable[..., Result], game: str) -> None:
    assert invoke("players", "-p", f"game={game}", "-p", "limit=3").exit_code == 2
    result = invoke("most_remembered_events", "-p", f"game={game}", "-p", "limit=ten")
    assert result.exit_code == 2 and "parameter 'limit' expects INTEGER, got 'ten'" in result.output
    refused = invoke("most_remembered_events", "-p", f"game={game}", "-p", "limit=-1")
    assert refused.exit_code == 2 and "refused a parameter value (limit=-1)" in refused.output
    assert json.loads(invoke("most_remembered_events", "-p", f"game={game}", "-p", "limit=3",
                             "--format", "json").output).__len__() == 3


def probes(driver: neo4j.Driver) -> int:
    return int(driver.execute_query("MATCH (n:AnalysisWriteProbe) RETURN count(n)").records[0][0])


@pytest.mark.parametrize("statement", [
    WRITING,
    WRITING.replace("CREATE (n:AnalysisWriteProbe {game: $game}) RETURN n.game AS n",
                    "MATCH (p:Player {game: $game}) SET p.hacked = true RETURN p.name AS n"),
    WRITING.replace("CREATE (n:AnalysisWriteProbe {game: $game}) RETURN n.game AS n",
                    "MATCH (p:Player {game: $game}) DETACH DELETE p RETURN 1 AS n"),
])
def test_the_read_transaction_refuses_writes(driver: neo4j.Driver, game: str, statement: str) -> None:
    query = parse_header("analysis/writes", statement)
    with pytest.raises(WriteRefused, match="tries to write"):
        run_read(driver, None, query, {"game": game})
    assert probes(driver) == 0
    players = driver.execute_query("MATCH (p:Player {game: $game}) RETURN count(p), count(p.hacked)", game=game)
    assert players.records[0].values() == [4, 0]


def test_the_cli_reports_a_writing_query_as_a_failure(invoke: Callable[..., Result], driver: neo4j.Driver,
                                                      game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    writing = parse_header("analysis/writes", WRITING)

    def fake(name: str) -> Query:
        return writing

    monkeypatch.setattr(graphmem.analysis, "analysis_query", fake)
    result = invoke("writes", "-p", f"game={game}")
    assert result.exit_code == 1
    assert "query 'writes' tries to write, and analysis queries run read-only" in result.output
    assert probes(driver) == 0
