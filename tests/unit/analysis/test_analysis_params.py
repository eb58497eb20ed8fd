"""Typing ``-p key=value`` strings by a query's ``@param`` header."""

from __future__ import annotations

import pytest

from graphmem.analysis.params import bind_params, coerce, default_value, parse_assignments
from graphmem.errors import UsageProblem
from graphmem.store.queries import QueryParam, parse_header

HEADER = """// A query for the tests.
// @param game: STRING  the game id
// @param day: INTEGER = null  only this day
// @param threshold: FLOAT = 0.25  strength floor
// @param strict: BOOLEAN = true  be strict
// @param names: LIST<STRING> = ["a","b"]  some names
// @param phases: LIST<INTEGER> = null  some phases
// @param options: MAP = null  options
// @returns x
RETURN $game AS x
"""
QUERY = parse_header("analysis/test_query", HEADER)
P = {p.name: p for p in QUERY.params}


def test_assignments_split_at_the_first_equals_sign() -> None:
    assert parse_assignments(["game=g1", "text=a=b", "empty="]) == {"game": "g1", "text": "a=b", "empty": ""}
    for bad in (["game"], ["=x"]):
        with pytest.raises(UsageProblem, match="KEY=VALUE"):
            parse_assignments(bad)
    with pytest.raises(UsageProblem, match="given twice"):
        parse_assignments(["day=1", "day=2"])


def test_defaults_apply_and_are_typed() -> None:
    assert bind_params(QUERY, {"game": "g"}) == {"game": "g", "day": None, "threshold": 0.25, "strict": True,
                                                 "names": ["a", "b"], "phases": None, "options": None}


def test_given_values_are_typed_by_the_header() -> None:
    bound = bind_params(QUERY, {"game": "g", "day": "3", "threshold": "1", "strict": "No", "names": "x, y",
                                "phases": "[1, 2]", "options": '{"k": 1}'})
    assert bound == {"game": "g", "day": 3, "threshold": 1.0, "strict": False, "names": ["x", "y"],
                     "phases": [1, 2], "options": {"k": 1}}
    assert isinstance(bound["threshold"], float) and isinstance(bound["day"], int)
    assert coerce(P["names"], "") == [] and coerce(P["names"], '["a,b"]') == ["a,b"]
    assert coerce(P["day"], "-2") == -2 and coerce(P["day"], "null") is None
    assert coerce(P["game"], "123") == "123"


@pytest.mark.parametrize(("name", "raw", "expected"), [
    ("day", "two", "INTEGER"), ("day", "2.5", "INTEGER"), ("threshold", "high", "FLOAT"),
    ("threshold", "nan", "FLOAT"), ("threshold", "inf", "FLOAT"), ("strict", "maybe", "BOOLEAN"),
    ("phases", "1,x", "LIST<INTEGER>"), ("phases", "[1, true]", "LIST<INTEGER>"), ("phases", "[1", "LIST<INTEGER>"),
    ("names", '["a", 1]', "LIST<STRING>"), ("options", "[1]", "MAP"), ("options", "{", "MAP"),
])
def test_an_ill_typed_value_names_the_parameter_and_the_type(name: str, raw: str, expected: str) -> None:
    with pytest.raises(UsageProblem) as raised:
        bind_params(QUERY, {"game": "g", name: raw})
    assert f"parameter '{name}' expects {expected}, got {raw!r}" in str(raised.value)


def test_a_missing_required_parameter_names_it_with_its_type_and_doc() -> None:
    with pytest.raises(UsageProblem) as raised:
        bind_params(QUERY, {"day": "1"})
    assert "missing parameter 'game' (STRING: the game id)" in str(raised.value)
    with pytest.raises(UsageProblem, match="'game' .* cannot be null"):
        bind_params(QUERY, {"game": "null"})


def test_an_unknown_parameter_lists_the_known_ones() -> None:
    with pytest.raises(UsageProblem) as raised:
        bind_params(QUERY, {"game": "g", "dya": "1"})
    assert "has no parameter 'dya'" in str(raised.value) and "game, day, threshold" in str(raised.value)


def test_a_default_of_the_wrong_type_in_a_header_is_caught() -> None:
    with pytest.raises(UsageProblem):
        default_value(QueryParam("day", "INTEGER", False, '"x"', ""))
    assert default_value(QueryParam("word", "STRING", False, "bare", "")) == "bare"
    assert default_value(QueryParam("f", "FLOAT", False, "1", "")) == 1.0
