"""The decay job without a database: its queries' headers, its report, its argument checks."""

from __future__ import annotations

import json
import re
from types import MappingProxyType

import neo4j
import pytest

from graphmem.cli.phase_cmd import summary
from graphmem.errors import UsageProblem
from graphmem.jobs.decay import DecayReport, advance
from graphmem.model import default_parameters
from graphmem.model.vocabulary import LIVE_STATES
from graphmem.store.queries import load, query_names

DECAY_QUERIES = [n for n in query_names() if n.startswith("jobs/decay")]


def test_the_decay_queries_are_shipped() -> None:
    assert {"jobs/decay_game", "jobs/decay_memories", "jobs/decay_thoughts",
            "jobs/decay_thoughts_set", "jobs/decay_game_set"} <= set(DECAY_QUERIES)


@pytest.mark.parametrize("name", DECAY_QUERIES)
def test_every_parameter_a_decay_query_uses_is_documented(name: str) -> None:
    query = load(name)
    body = "\n".join(line for line in query.text.splitlines() if not line.strip().startswith("//"))
    used = set(re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", body))
    assert used == {p.name for p in query.params}, name
    assert query.purpose and query.returns


def test_model_numbers_are_parameters_not_literals() -> None:
    params = default_parameters()
    body = "\n".join(line for line in load("jobs/decay_memories").text.splitlines()
                     if not line.strip().startswith("//"))
    for number in (params.lifecycle.active, params.source.unknown_below, params.flashbulb.floor):
        assert not re.search(rf"(?<![\d.]){re.escape(repr(number))}0*(?!\d)", body), number
    for state in LIVE_STATES:
        assert f"'{state}'" in body


def test_report_as_json_and_summary() -> None:
    report = DecayReport(game="g-1", from_phase=3, to_phase=5, curve="power", memories=7,
                         states=MappingProxyType({"active": 4, "warm": 2, "archived": 1}), thoughts=3,
                         thoughts_active=2, seconds=0.25)
    data = json.loads(json.dumps(report.as_dict()))
    assert data["states"] == {"active": 4, "warm": 2, "archived": 1}
    assert (data["game"], data["from_phase"], data["to_phase"], data["memories"]) == ("g-1", 3, 5, 7)
    assert summary(report) == ("Game g-1 decayed from phase 3 to phase 5 on the power curve: 7 memories updated "
                               "(4 active, 2 warm, 1 archived); 2 of 3 thoughts held in working memory. "
                               "Took 0.25 s.")


def test_batch_size_below_one_is_a_usage_problem_before_any_query() -> None:
    # a driver to a closed port: creating it does not connect, and the check comes first
    with neo4j.GraphDatabase.driver("bolt://127.0.0.1:9") as driver:
        with pytest.raises(UsageProblem, match="batch_size"):
            advance(driver, None, "g", 1, default_parameters(), batch_size=0)
