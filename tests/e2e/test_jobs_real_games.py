"""Consolidation and contradictions on the real LLM Traitors games, with the real embedding model and a real Neo4j.

The jobs change what they run on, and the session's ``real_games`` are shared with other tests, so the writing
tests work on copies of a few real games under their own ids (``jobs-{id}``); over all the real games the jobs
run as dry runs, which write nothing.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest

from graphmem.importers import discover, load_game_log
from graphmem.ingest.pipeline import IngestSummary
from graphmem.jobs.consolidation import consolidate
from graphmem.jobs.contradictions import find_contradictions
from graphmem.logs.writer import write_game_log
from graphmem.model import Parameters
from tests.integration.helpers import clear

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
COPIES = 3
CONTRADICTED = ("433y9yyp", "h2cu3q56", "o4fp2cqx")
"""Real games in which players contradict themselves or each other (433y9yyp is also among the examples): copied
first, so that the writing tests have conflicts to write."""


def one(driver: neo4j.Driver, query: str, **params: Any) -> Any:
    return driver.execute_query(query, params).records[0][0]


def counts(driver: neo4j.Driver, games: list[str]) -> tuple[int, int, list[Any]]:
    nodes = one(driver, "MATCH (n) WHERE n.game IN $games RETURN count(n)", games=games)
    rels = one(driver, "MATCH (n)-[r]->() WHERE n.game IN $games RETURN count(r)", games=games)
    states = driver.execute_query("MATCH (m:Memory) WHERE m.game IN $games RETURN m.state AS s, count(*) AS n "
                                  "ORDER BY s", games=games).records
    return nodes, rels, [r.data() for r in states]


@pytest.fixture(scope="module")
def copies(driver: neo4j.Driver, real_games: IngestSummary, real_games_path: Path, memory: Any,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """COPIES real games ingested again as ``jobs-{id}`` (their texts are already embedded: quick)."""
    folder = tmp_path_factory.mktemp("jobs-real-games")
    games = []
    found = discover([real_games_path])
    found.sort(key=lambda item: (not any(game in str(item[0]) for game in CONTRADICTED), str(item[0])))
    for path, fmt in found[:COPIES]:
        log = load_game_log(path, fmt)
        game = f"jobs-{log.game}"
        write_game_log(dataclasses.replace(log, header=log.header.model_copy(update={"game": game})),
                       folder / f"{game}.jsonl")
        games.append(game)
    memory.ingest(folder)
    yield games
    clear(driver, *games)


def test_consolidation_writes_summaries_and_a_second_run_adds_nothing(driver: neo4j.Driver, copies: list[str],
                                                                      params: Parameters) -> None:
    written = 0
    for game in copies:
        report = consolidate(driver, None, game, params)
        assert report.summaries == report.created and report.members >= 3 * report.summaries
        written += report.created
    assert written > 0  # a game can have no repeated memories; these games together do
    bad = one(driver, """
        MATCH (m:Memory) WHERE m.game IN $games AND m.state = 'consolidated'
        OPTIONAL MATCH (s:Summary)-[:CONSOLIDATES]->(m)
        WITH m, collect(s) AS by
        WHERE size(by) <> 1 OR by[0].uid <> m.summary OR by[0].owner <> m.owner OR m:Summary
        RETURN count(m)""", games=copies)
    assert bad == 0  # every consolidated member: exactly one summary, its own owner's, named in `summary`
    small = one(driver, """
        MATCH (p:Player)-[:REMEMBERS]->(s:Summary) WHERE s.game IN $games AND p.name = s.owner
        WITH s, COUNT { (s)-[:CONSOLIDATES]->(:Memory {state: 'consolidated'}) } AS members
        WHERE members < 3 OR members <> s.members
        RETURN count(s)""", games=copies)
    assert small == 0
    summaries = one(driver, "MATCH (s:Summary) WHERE s.game IN $games RETURN count(s)", games=copies)
    remembered = one(driver, "MATCH (:Player)-[:REMEMBERS]->(s:Summary) WHERE s.game IN $games RETURN count(s)",
                     games=copies)
    assert summaries == remembered > 0
    merged = driver.execute_query("""
        MATCH (s:Summary)-[:CONSOLIDATES]->(m:Memory)-[:OF_EVENT]->(e:Event) WHERE s.game IN $games
        WITH s, collect(DISTINCT m.kind) AS kinds, collect(DISTINCT m.claims_json) AS claims,
             collect(DISTINCT [e.actor] + e.targets) AS facts
        WHERE size(kinds) > 1 OR size(claims) > 1 OR (kinds[0] <> 'say' AND size(facts) > 1)
        RETURN s.text AS text, kinds, facts""", games=copies).records
    assert not merged, f"summaries of different facts: {[r.data() for r in merged[:3]]}"

    before = counts(driver, copies)
    for game in copies:
        again = consolidate(driver, None, game, params)
        assert (again.summaries, again.members, again.created) == (0, 0, 0)
    assert counts(driver, copies) == before


def test_contradictions_on_real_games_link_two_memories_of_the_owner_and_rerun_adds_nothing(
        driver: neo4j.Driver, copies: list[str], params: Parameters) -> None:
    detected = 0
    for game in copies:
        detected += find_contradictions(driver, None, game, params).detected
    assert detected > 0
    malformed = one(driver, """
        MATCH (c:Conflict) WHERE c.game IN $games
        OPTIONAL MATCH (c)-[e:BETWEEN]->(m:Memory)
        WITH c, collect(m) AS ms, collect(e.side) AS sides
        WHERE size(ms) <> 2 OR any(m IN ms WHERE m.owner <> c.owner) OR NOT sides IN [['a', 'b'], ['b', 'a']]
        RETURN count(c)""", games=copies)
    assert malformed == 0
    before = counts(driver, copies)
    for game in copies:
        again = find_contradictions(driver, None, game, params)
        assert (again.new, again.created, again.resolved, again.tombstoned) == (0, 0, 0, 0)
    assert counts(driver, copies) == before


def test_dry_runs_over_every_real_game_find_work_and_write_nothing(driver: neo4j.Driver, real_games: IngestSummary,
                                                                   params: Parameters) -> None:
    games = [g.game for g in real_games.per_game]
    before = counts(driver, games)
    with_summaries = 0
    for game in games:
        report = consolidate(driver, None, game, params, dry_run=True)
        with_summaries += report.summaries > 0
        assert all(p["members"] >= 3 and p["text"].startswith(f"({p['members']} similar ") for p in report.planned)
        conflicts = find_contradictions(driver, None, game, params, dry_run=True)
        assert conflicts.created == 0
    assert with_summaries >= 0.8 * len(games)  # most real games repeat something (33 of 40 with the defaults)
    assert counts(driver, games) == before


def test_no_conflict_on_the_real_games_is_a_vote_that_changed_between_rounds(driver: neo4j.Driver,
                                                                             real_games: IngestSummary,
                                                                             params: Parameters) -> None:
    """Before votes were scoped to their round, the job found thousands of "conflicts" on these games, every one a
    player voting for different people on different days (issue 14). Now a conflict about a vote compares one
    round only, never two votes, and the report counts the conflicts of each game by kind and status."""
    found: dict[str, int] = {}
    for game in (g.game for g in real_games.per_game):
        report = find_contradictions(driver, None, game, params, dry_run=True)
        assert sum(report.by_kind.values()) == report.detected
        assert {k: sum(s.values()) for k, s in report.by_status.items()} == report.by_kind
        for kind, n in report.by_kind.items():
            found[kind] = found.get(kind, 0) + n
        for c in report.conflicts:
            pair = driver.execute_query("MATCH (m:Memory) WHERE m.uid IN $uids RETURN m.kind AS kind, "
                                        "m.claims_json AS claims", uids=[c["memory_a"], c["memory_b"]]).records
            assert [r["kind"] for r in pair].count("vote") < 2, c  # two votes are two facts, never a conflict
            if c["predicate"] == "voted_for":
                for r in pair:
                    rounds = {x[4] for x in json.loads(r["claims"])
                              if x[1] == "voted_for" and x[0] == c["subject"] and len(x) == 5}
                    assert c["round"] in rounds, c
    assert found.get("temporal", 0) == 0 and found.get("preference", 0) > 0, found
