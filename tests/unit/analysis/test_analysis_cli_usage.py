"""``graphmem query`` usage errors and ``--list``: all decided before any connection (no Neo4j needed)."""

from __future__ import annotations

import csv
import io
from typing import Any

from click.testing import CliRunner

from graphmem.analysis import analysis_query_names
from graphmem.cli import main
from graphmem.cli.query_cmd import csv_cell, render_csv, table_cell

# A URI where nothing listens: a usage error must come before any connection attempt.
NOWHERE = ["--uri", "bolt://127.0.0.1:1"]


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*NOWHERE, "query", *args])
    return result.exit_code, result.output


def test_list_prints_every_query_with_its_documentation() -> None:
    code, out = invoke("--list")
    assert code == 0
    blocks = out.strip().split("\n\n")[1:]
    assert [b.splitlines()[0] for b in blocks] == list(analysis_query_names())
    for block in blocks:
        scope = "series" if block.startswith("series_") else "game"
        assert f"-p {scope}=<STRING>  (required)" in block and "returns: " in block
    assert "-p day=<INTEGER>  (default null)" in out
    assert "-p include_murder_votes=<BOOLEAN>  (default false)" in out


def test_unknown_query_exits_2_with_suggestions() -> None:
    code, out = invoke("acusation_network", "-p", "game=g")
    assert code == 2
    assert "no analysis query named 'acusation_network'; did you mean accusation_network" in out


def test_missing_and_ill_typed_parameters_exit_2_naming_them() -> None:
    code, out = invoke("who_told_whom")
    assert code == 2 and "missing parameter 'game' (STRING" in out
    code, out = invoke("who_told_whom", "-p", "game=g", "-p", "day=monday")
    assert code == 2 and "parameter 'day' expects INTEGER, got 'monday'" in out
    code, out = invoke("source_amnesia", "-p", "game=g", "-p", "recallable_only=perhaps")
    assert code == 2 and "parameter 'recallable_only' expects BOOLEAN" in out
    code, out = invoke("who_told_whom", "-p", "game=g", "-p", "colour=red")
    assert code == 2 and "has no parameter 'colour'" in out
    code, out = invoke("who_told_whom", "-p", "game")
    assert code == 2 and "KEY=VALUE" in out
    code, out = invoke()
    assert code == 2 and "--list" in out
    code, out = invoke("who_told_whom", "-p", "game=g", "--format", "xml")
    assert code == 2


def test_a_valid_request_without_neo4j_fails_with_exit_1_not_a_usage_error() -> None:
    code, out = invoke("who_told_whom", "-p", "game=g")
    assert code == 1 and "cannot reach Neo4j" in out


def test_cells_render_nulls_numbers_lists_and_maps() -> None:
    assert table_cell(None) == "" and csv_cell(None) == ""
    assert table_cell(True) == "true" and csv_cell(False) == "false"
    assert table_cell(0.123456) == "0.1235" and table_cell(2.0) == "2.0" and csv_cell(0.123456789) == "0.123456789"
    assert table_cell(["a", "b"]) == "a, b" and csv_cell(["a", "b"]) == '["a","b"]'
    # the tallies of the quests query are sentences: read as prose, not "... 2 votes to 3., Eve's team ..."
    tallies = ["Chen's team (Chen, Dana) was rejected, 2 votes to 3.", "Eve's team (Eve, Chen) was approved, 4 votes to 1."]
    assert table_cell(tallies) == " ".join(tallies)
    assert table_cell([{"k": 1}]) == '[{"k":1}]' and table_cell({"k": None}) == '{"k":null}'


def test_csv_has_a_header_row_and_round_trips() -> None:
    rows: list[dict[str, Any]] = [{"a": "x, \"y\"", "b": 1, "c": [1, 2]}, {"a": None, "b": 2.5, "c": []}]
    text = render_csv(("a", "b", "c"), rows)
    parsed = list(csv.reader(io.StringIO(text)))
    assert parsed == [["a", "b", "c"], ['x, "y"', "1", "[1,2]"], ["", "2.5", "[]"]]
    assert render_csv(("a",), []) == "a\r\n"


def test_json_output_is_strict_json_even_for_a_memory_that_never_fades() -> None:
    from graphmem.cli.query_cmd import json_safe

    rows = [{"memory": "g/memory/Ann/1", "s": float("inf"), "strength": 1.0, "scores": [float("nan"), 0.5]}]
    assert json_safe(rows) == [{"memory": "g/memory/Ann/1", "s": None, "strength": 1.0, "scores": [None, 0.5]}]
