"""The Cypher loader: every shipped file parses, names resolve, identifiers are checked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphmem.errors import UnknownQuery, UnsafeIdentifier
from graphmem.store.queries import (
    expand,
    fragment,
    fragment_names,
    identifier,
    load,
    parse_header,
    query_names,
    with_identifiers,
)


def test_every_shipped_query_has_a_documented_header() -> None:
    names = query_names()
    assert "schema/vector_index" in names
    for name in names:
        query = load(name)
        assert query.purpose, f"{name}.cypher has no purpose line"
        assert query.returns, f"{name}.cypher has no @returns line"
        for param in query.params:
            assert f"${param.name}" in query.text, f"{name}: documented ${param.name} is never used"


def test_header_parsing_gives_params_defaults_and_columns() -> None:
    query = parse_header("x", "// Purpose one.\n// Purpose two.\n// @param game: STRING  the game id\n"
                              "// @param day: INTEGER = null  only this day\n// @returns a, b\nRETURN $game AS a, $day AS b\n")
    assert query.purpose == "Purpose one. Purpose two."
    assert [(p.name, p.type, p.required, p.default) for p in query.params] == [
        ("game", "STRING", True, None), ("day", "INTEGER", False, "null")]
    assert query.params[0].doc == "the game id"
    assert query.returns == ("a", "b")


def test_malformed_param_line_is_rejected_with_the_file_name() -> None:
    with pytest.raises(ValueError, match="x.cypher: malformed header line"):
        parse_header("x", "// @param game: TEXT the game\nRETURN 1")


def test_unknown_query_suggests_close_names() -> None:
    with pytest.raises(UnknownQuery, match="did you mean schema/vector_index"):
        load("schema/vector_indx")


@pytest.mark.parametrize("hostile", ["Memory`) DETACH DELETE n //", "a b", "1abc", "", "Mem-ory", "x;y", "é"])
def test_hostile_identifiers_are_rejected(hostile: str) -> None:
    with pytest.raises(UnsafeIdentifier):
        identifier(hostile)
    with pytest.raises(UnsafeIdentifier):
        with_identifiers(load("schema/uid_constraint").text, name="ok", label=hostile)


def test_identifiers_are_backticked_into_the_text() -> None:
    text = with_identifiers(load("schema/uid_constraint").text, name="memory_uid", label="Memory")
    assert "CREATE CONSTRAINT `memory_uid` IF NOT EXISTS FOR (n:`Memory`) REQUIRE n.uid IS UNIQUE" in text


# Queries that change Memory nodes without raising their owners' memory versions, and why that is right.
MEMORY_WRITES_WITHOUT_VERSION = {
    "jobs/decay_memories": "the decay job moves Game.decayed_to, which recall compares with the version",
    "schema/scope_backfill": "sets only the full-text scope token: recall reads the full-text hits every time",
}
PACKAGE = Path(__file__).resolve().parents[3] / "graphmem"


def test_every_query_that_changes_memories_runs_beside_a_raise_of_their_owners_memory_versions() -> None:
    # recall skips reading an owner's candidates while the owner's memory version is the one it read them at
    # (graphmem.recall.vectors): a write that changes memories and forgets the version serves stale candidates.
    # Each such query's name must appear in a module that raises the versions (graphmem.store.versions), or writes
    # through the store's reader, whose write raises them (graphmem.store.reader.MemoryReader.write).
    sources = {path: path.read_text(encoding="utf-8") for path in PACKAGE.rglob("*.py")}
    raising = [text for path, text in sources.items()
               if "from graphmem.store.versions import" in text
               or re.search(r"from graphmem\.store\.reader import .*\bMemoryReader\b", text)]
    writers = []
    for name in query_names():
        text = "\n".join(line for line in load(name).text.splitlines() if not line.lstrip().startswith("//"))
        memories = set(re.findall(r"\((\w+):Memory\b", text))
        written = set(re.findall(r"\b(?:SET|REMOVE)\s+(\w+)\.", text))
        created = re.search(r"\b(?:MERGE|CREATE)\s+\(\w+:Memory\b", text)
        if memories & written or created:
            writers.append(name)
            if name not in MEMORY_WRITES_WITHOUT_VERSION:
                base = name.split("/")[1]
                assert any(f'"{name}"' in source or f'"{base}"' in source for source in raising), \
                    f"{name} changes Memory nodes, but no module that runs it raises the owners' memory versions"
    assert {"recall/write", "ingest/write_memories", "jobs/forget_tombstone", "jobs/consolidate_write",
            "jobs/contradictions_resolve", "schema/recall_backfill"} <= set(writers)
    assert set(MEMORY_WRITES_WITHOUT_VERSION) <= set(writers)


def test_no_query_builds_a_uid_by_hand() -> None:
    """Uids follow one scheme, graphmem/store/keys.py's: a query gets them as parameters or reaches the node through
    the graph's edges, and never glues one together (``$game + '/player/' + name``)."""
    cypher = Path(__file__).resolve().parents[3] / "cypher"
    glued = re.compile(r"'/(?:player|thought|memory|event|phase|source|summary|conflict|log)/'")
    found = sorted(p.relative_to(cypher).as_posix() for p in cypher.rglob("*.cypher")
                   if glued.search(p.read_text(encoding="utf-8")))
    assert found == []


def test_every_query_a_recall_runs_keeps_its_plan_while_the_statistics_change() -> None:
    """Neo4j plans a query again once the statistics it was planned on have moved (every 10 s at most); planning
    recall's context query took up to 500 ms, paid by a live game's recall after a game was stored or deleted
    (graphmem.store.queries, "Query plans"). Every query under cypher/recall/ opts out with ``CYPHER replan=skip``,
    and a new recall query must too."""
    recall = [name for name in query_names() if name.startswith("recall/")]
    assert {"recall/context", "recall/earlier_context", "recall/write", "recall/raise_versions"} <= set(recall)
    for name in recall:
        statement = [line.strip() for line in load(name).text.splitlines()
                     if line.strip() and not line.lstrip().startswith("//")]
        assert statement[0] == "CYPHER replan=skip", f"{name}.cypher plans again when the statistics move"


CURVE = re.compile(r"log\(2(?:\.0)?\)|\bexp\(|\^\s*\(-0\.5\)|WHEN\s+'power'")


def test_the_forgetting_curve_is_spelled_once_in_cypher() -> None:
    """The curve's one Cypher home is the fragment cypher/fragments/retention.cypher; the queries that compute
    strengths in Neo4j use it as @retention(dt, s, curve), and no query spells it (or any part of it) again."""
    cypher = Path(__file__).resolve().parents[3] / "cypher"
    spelled, uses = [], {}
    for path in sorted(cypher.rglob("*.cypher")):
        code = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                         if not line.lstrip().startswith("//"))
        if CURVE.search(code):
            spelled.append(path.relative_to(cypher).as_posix())
        if code.count("@retention("):
            uses[path.relative_to(cypher).as_posix()[:-len(".cypher")]] = code.count("@retention(")
    assert spelled == ["fragments/retention.cypher"]
    # the queries that compute strengths in Neo4j; a new one joins this list (and this test) on purpose
    assert uses == {"analysis/strength_by_profile": 1, "jobs/decay_memories": 2, "recall/context": 2,
                    "recall/earlier_context": 1}
    curve = fragment("retention").text
    for name, count in uses.items():
        text = "\n".join(line for line in load(name).text.splitlines() if not line.lstrip().startswith("//"))
        assert "@retention" not in text
        assert text.count("log(2.0)") == count, name  # expanded where it was used, nowhere else
    assert [p.name for p in fragment("retention").params] == ["dt", "s", "curve"]
    assert curve.startswith("CASE $curve WHEN 'power'")
    assert "retention" in fragment_names() and not any(n.startswith("fragments/") for n in query_names())


def test_a_fragment_use_is_replaced_by_its_expression_with_the_arguments_in_place() -> None:
    text = expand("q", "// @retention(x) in a comment stays\nRETURN 2 * @retention(toFloat(now - m.t), coalesce(m.s, 1.0), g.curve) AS r")
    assert text.splitlines()[0] == "// @retention(x) in a comment stays"
    assert text.splitlines()[1] == (
        "RETURN 2 * (CASE g.curve WHEN 'power' THEN (1.0 + 3.0 * (toFloat(now - m.t)) / ((coalesce(m.s, 1.0)) * log(2.0)))"
        " ^ (-0.5) ELSE exp(-(toFloat(now - m.t)) / (coalesce(m.s, 1.0))) END) AS r")


@pytest.mark.parametrize(("use", "problem"), [
    ("RETURN @retention(dt, s) AS r", "q.cypher: line 1: @retention takes 3 arguments (dt, s, curve), got '@retention(dt, s)'"),
    ("RETURN @retention(dt, , c) AS r", "q.cypher: line 1: @retention takes 3 arguments"),
    ("RETURN @retention(dt, s, c\n", "q.cypher: a fragment's use is not closed on its line"),
])
def test_a_malformed_fragment_use_names_the_query_and_line(use: str, problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        expand("q", use)


def test_an_unknown_fragment_suggests_close_names() -> None:
    with pytest.raises(UnknownQuery, match="no Cypher fragment named 'retentoin'; did you mean retention"):
        expand("q", "RETURN @retentoin(1, 2, 'power')")
