"""The analysis query library: every shipped file is documented, typed and scoped to one game."""

from __future__ import annotations

import re

import pytest

from graphmem.analysis import analysis_query, analysis_query_names, describe
from graphmem.analysis.catalog import query_scope, suggestions
from graphmem.analysis.params import default_value
from graphmem.errors import UnknownQuery, UsageProblem
from graphmem.store.queries import PARAM_TYPES

# The questions the library must answer (docs/queries.md and issue 7); more may be added.
REQUIRED = {"who_told_whom", "rumour_reach", "rumour_origin", "false_memories", "forgotten_events", "flashbulbs",
            "open_conflicts", "source_amnesia", "strength_by_profile", "accusation_network", "information_boundary",
            "traitor_lies", "most_remembered_events", "memory_summary", "profile_summary", "banishments",
            "game_overview", "players", "phases", "player_memories", "lies_and_reversals",
            "series_games", "series_reputation"}

NAMES = analysis_query_names()


def test_the_library_answers_every_required_question() -> None:
    assert REQUIRED <= set(NAMES)
    assert all("/" not in name for name in NAMES)


def code_lines(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


@pytest.mark.parametrize("name", NAMES)
def test_every_query_is_documented_typed_and_takes_the_game_or_the_series(name: str) -> None:
    query = analysis_query(name)
    assert len(query.purpose) > 40, "a purpose of at least a sentence"
    assert query.returns and len(set(query.returns)) == len(query.returns)
    params = {p.name: p for p in query.params}
    scope = "series" if name.startswith("series_") else "game"
    assert query_scope(query) == scope and name in analysis_query_names(scope)
    assert params[scope].type == "STRING" and params[scope].required
    assert ({"game", "series"} - {scope}).isdisjoint(params), "one scope: a game or a series, never both"
    for param in query.params:
        assert param.type in PARAM_TYPES
        assert param.doc, f"@param {param.name} has no documentation"
        if not param.required:
            default_value(param)  # parses as its type
    used = set(re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", code_lines(query.text)))
    assert used == set(params), f"parameters used {sorted(used)} != documented {sorted(params)}"


@pytest.mark.parametrize("name", NAMES)
def test_every_query_starts_from_a_game_scoped_index_or_its_series_and_never_writes(name: str) -> None:
    code = code_lines(analysis_query(name).text)
    if name.startswith("series_"):
        assert code.startswith("MATCH (s:Series {name: $series})"), "starts from its series (few Series nodes)"
    else:
        assert re.search(r"\{(game|uid): \$game", code), "reads through a label + game (or uid) index"
    for clause in ("CREATE", "MERGE", "SET", "DELETE", "REMOVE", "DETACH", "LOAD CSV", "CALL db.", "CALL dbms."):
        assert not re.search(rf"\b{clause}\b", code, re.IGNORECASE), f"{clause} in an analysis query"


def test_an_unknown_name_is_a_usage_error_with_suggestions() -> None:
    with pytest.raises(UnknownQuery) as raised:
        analysis_query("who_told_who")
    assert isinstance(raised.value, UsageProblem)
    assert "did you mean who_told_whom" in str(raised.value)
    assert suggestions("rumor_reach")[0] == "rumour_reach"
    assert suggestions("flashbulb") == ["flashbulbs"]
    assert "graphmem query --list" in str(pytest.raises(UnknownQuery, analysis_query, "zzzzzz").value)


def test_non_analysis_queries_are_not_reachable_by_name() -> None:
    with pytest.raises(UnknownQuery):
        analysis_query("ingest/write_game")
    with pytest.raises(UnknownQuery):
        analysis_query("../jobs/decay_memories")


def test_describe_prints_purpose_params_with_types_and_defaults_and_columns() -> None:
    text = describe(analysis_query("who_told_whom"))
    first, *rest = text.splitlines()
    assert first == "who_told_whom"
    assert "Who told whom" in text
    assert "-p game=<STRING>  (required)  the game id" in text
    assert "-p day=<INTEGER>  (default null)  only this day" in text
    assert "returns: teller, teller_role, listener, listener_role, day, channel, messages" in " ".join(
        line.strip() for line in rest)
