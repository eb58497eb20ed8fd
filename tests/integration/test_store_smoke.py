"""The foundation against a real Neo4j: schema, constraints, vector and full-text indexes, batches.

Each test writes under its own game id and removes what it made.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import threading
import traceback
import uuid
from collections.abc import Iterator

import neo4j
import numpy as np
import pytest
from click.testing import CliRunner
from neo4j.exceptions import ConstraintError

from graphmem.cli import main
from graphmem.store.keys import scope_token
from graphmem.store.schema import (
    FULLTEXT_INDEX,
    FULLTEXT_PROPERTIES,
    FULLTEXT_SEARCH,
    RECALL_INDEX,
    RECALL_PROPERTIES,
    VECTOR_INDEX,
    ensure_schema,
)
from tests.integration.helpers import clear

pytestmark = pytest.mark.neo4j


@pytest.fixture()
def game(driver: neo4j.Driver) -> Iterator[str]:
    game_id = f"smoke-{uuid.uuid4().hex[:8]}"
    yield game_id
    clear(driver, game_id)


def test_schema_is_created_once_and_is_online(driver: neo4j.Driver, schema: object) -> None:
    again = ensure_schema(driver, None, 384)
    assert again.created == ()
    states = {name: (kind, state) for name, kind, state in again.indexes}
    assert states[VECTOR_INDEX] == ("VECTOR", "ONLINE")
    assert states["memory_text"] == ("FULLTEXT", "ONLINE")
    assert states["memory_recall"] == ("RANGE", "ONLINE")
    assert again.constraints >= 8 and again.dimensions == 384


def start_game(uri: str, start: threading.Barrier, failures: list[RuntimeError]) -> None:
    """What each process starting a game does first, with a driver of its own as a process has: wait for the others,
    then make sure of the schema."""
    try:
        auth = (os.environ.get("NEO4J_USER") or "neo4j", os.environ.get("NEO4J_PASSWORD") or "graphmem")  # as conftest's
        with neo4j.GraphDatabase.driver(uri, auth=auth) as own:
            own.verify_connectivity()
            start.wait()
            ensure_schema(own, None, 384)
    except BaseException as e:
        failures.append(RuntimeError("".join(traceback.format_exception(e))))  # the whole chain, for the report


def test_processes_starting_games_at_once_without_the_schema_all_get_it(driver: neo4j.Driver, neo4j_uri: str,
                                                                       schema: object) -> None:
    """Workers that start games at once on a database lacking an index (``graphmem model people`` on a fresh Neo4j)
    each create it: none may fail because another created it first (Neo4j's EquivalentSchemaRuleAlreadyExists, which
    ended a 16-minute comparison on 2026-12-07). Each worker has its own driver: sharing the session's, whose pool the
    rest of the suite has used, once timed out taking a connection (60 s) in CI."""
    missing = ("player_game", "event_game", "memory_game")
    for _ in range(5):  # the race is a matter of timing: give it several chances
        for name in missing:
            driver.execute_query(f"DROP INDEX {name} IF EXISTS")
        start = threading.Barrier(6)
        failures: list[RuntimeError] = []
        workers = [threading.Thread(target=start_game, args=(neo4j_uri, start, failures)) for _ in range(6)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        if failures:
            pytest.fail(str(failures[0]))
        states = {name: state for name, _, state in ensure_schema(driver, None, 384).indexes}
        assert all(states[name] == "ONLINE" for name in missing)


def test_uid_uniqueness_is_enforced(driver: neo4j.Driver, schema: object, game: str) -> None:
    driver.execute_query("CREATE (:Memory {uid: $uid, game: $game})", uid=f"{game}/m1", game=game)
    with pytest.raises(ConstraintError):
        driver.execute_query("CREATE (:Memory {uid: $uid, game: $game})", uid=f"{game}/m1", game=game)


def test_vector_index_returns_the_nearest_memory(driver: neo4j.Driver, schema: object, game: str) -> None:
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(50, 384))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    rows = [{"uid": f"{game}/m{i}", "embedding": v.tolist()} for i, v in enumerate(vectors)]
    driver.execute_query("UNWIND $rows AS r CREATE (:Memory {uid: r.uid, game: $game, embedding: r.embedding})",
                         rows=rows, game=game)
    probe = vectors[17] + 0.05 * rng.normal(size=384)
    records, _, _ = driver.execute_query(
        "CALL db.index.vector.queryNodes('memory_embedding', 200, $v) YIELD node, score "
        "WHERE node.game = $game RETURN node.uid AS uid, score LIMIT 3", v=probe.tolist(), game=game)
    # the index is global: in a database that holds the real games, the other 49 random vectors of this game may
    # all be outside the 200 nearest, so only the nearest one is sure to come back
    assert records[0]["uid"] == f"{game}/m17"
    assert records[0]["score"] > 0.8 and all(r["score"] < records[0]["score"] for r in records[1:])


def test_fulltext_index_scores_the_matching_text(driver: neo4j.Driver, schema: object, game: str) -> None:
    texts = ["Marcus is a traitor, I am sure", "The mission went well", "Eleanor trusts Marcus"]
    driver.execute_query("UNWIND range(0, size($texts) - 1) AS i "
                         "CREATE (:Memory {uid: $game + '/m' + i, game: $game, text: $texts[i]})",
                         texts=texts, game=game)
    records, _, _ = driver.execute_query(
        FULLTEXT_SEARCH + "WHERE node.game = $game RETURN node.text AS text, score", q="traitor", game=game)
    assert [r["text"] for r in records] == ["Marcus is a traitor, I am sure"]


def test_an_older_database_gets_the_scoped_full_text_index_and_its_tokens(driver: neo4j.Driver, schema: object,
                                                                        game: str,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    # memories written before the scope token existed, and the full-text index of that time
    driver.execute_query("UNWIND range(1, 3) AS i CREATE (:Memory {uid: $game + '/m' + i, game: $game, "
                         "owner: 'Ann', text: 'Ann saw the traitor at night ' + i})", game=game)
    driver.execute_query("DROP INDEX memory_text")
    driver.execute_query("CREATE FULLTEXT INDEX memory_text FOR (m:Memory) ON EACH [m.text, m.keywords]")
    driver.execute_query("CALL db.awaitIndexes(300)")
    with caplog.at_level(logging.INFO, logger="graphmem.store.schema"):
        report = ensure_schema(driver, None, 384)
    assert report.rebuilt == (FULLTEXT_INDEX,) and report.backfilled >= 3 and report.created == ()
    assert "rebuilding the full-text index memory_text: it covers Memory text, keywords" in caplog.text
    index = next(r for r in driver.execute_query("SHOW INDEXES YIELD name, properties, state").records
                 if r["name"] == FULLTEXT_INDEX)
    assert (sorted(index["properties"]), index["state"]) == (sorted(FULLTEXT_PROPERTIES), "ONLINE")
    scopes = driver.execute_query("MATCH (m:Memory {game: $game}) RETURN m.scope AS scope", game=game).records
    assert [r["scope"] for r in scopes] == [scope_token(game, "Ann")] * 3
    hits = driver.execute_query(FULLTEXT_SEARCH + "RETURN count(*) AS n",
                                q=f"(traitor) AND scope:{scope_token(game, 'Ann')}^0").records
    assert hits[0]["n"] == 3
    again = ensure_schema(driver, None, 384)
    assert (again.rebuilt, again.backfilled, again.created) == ((), 0, ())


def test_a_full_text_index_updated_in_the_commit_is_rebuilt_and_a_search_finds_every_committed_write(
        driver: neo4j.Driver, schema: object, game: str, caplog: pytest.LogCaptureFixture) -> None:
    # the index of the previous graphmem: the same properties and analyzer, its updates applied in each commit
    driver.execute_query("DROP INDEX memory_text")
    driver.execute_query("CREATE FULLTEXT INDEX memory_text FOR (m:Memory) ON EACH [m.text, m.keywords, m.context, "
                         "m.scope] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}")
    driver.execute_query("CALL db.awaitIndexes(300)")
    with caplog.at_level(logging.INFO, logger="graphmem.store.schema"):
        report = ensure_schema(driver, None, 384)
    assert report.rebuilt == (FULLTEXT_INDEX,) and "updated in the commit" in caplog.text
    options = next(r["options"] for r in driver.execute_query("SHOW INDEXES YIELD name, options").records
                   if r["name"] == FULLTEXT_INDEX)
    assert options["indexConfig"]["fulltext.eventually_consistent"] is True
    # the commit no longer waits for Lucene, and a search right after each write still finds it
    for i in range(20):
        driver.execute_query("CREATE (:Memory {uid: $game + '/w' + $i, game: $game, owner: 'Ann', "
                             "text: 'Ann heard whisper number w' + $i, scope: $scope})", game=game, i=i,
                             scope=scope_token(game, "Ann"))
        hits = driver.execute_query(FULLTEXT_SEARCH + "RETURN node.uid AS uid",
                                    q=f"(w{i}) AND scope:{scope_token(game, 'Ann')}^0").records
        assert [r["uid"] for r in hits] == [f"{game}/w{i}"]


def test_an_older_recall_index_is_rebuilt_and_its_memories_get_a_strength(driver: neo4j.Driver, schema: object,
                                                                          game: str,
                                                                          caplog: pytest.LogCaptureFixture) -> None:
    # the recall index of an earlier graphmem (no strength), and a memory written then without a stored strength
    old = [p for p in RECALL_PROPERTIES if p != "strength"]
    driver.execute_query("CREATE (:Memory {uid: $game + '/m1', game: $game, owner: 'Ann', state: 'archived', t_enc: 1, "
                         "t_ref: 1, e_ref: 0.6, s: 2.0, floor: 0.0, threshold: 0.2, flashbulb: false, n: 0})", game=game)
    driver.execute_query(f"DROP INDEX {RECALL_INDEX}")
    driver.execute_query(f"CREATE RANGE INDEX {RECALL_INDEX} FOR (m:Memory) ON ({', '.join('m.' + p for p in old)})")
    driver.execute_query("CALL db.awaitIndexes(300)")
    with caplog.at_level(logging.INFO, logger="graphmem.store.schema"):
        report = ensure_schema(driver, None, 384)
    assert report.rebuilt == (RECALL_INDEX,) and f"rebuilding the index {RECALL_INDEX}" in caplog.text
    index = next(r for r in driver.execute_query("SHOW INDEXES YIELD name, properties, state").records
                 if r["name"] == RECALL_INDEX)
    assert (tuple(index["properties"]), index["state"]) == (RECALL_PROPERTIES, "ONLINE")
    # its strength at t_ref: recall's index seek (strength at least the lowest cue floor) reaches it
    strength = driver.execute_query("MATCH (m:Memory {uid: $game + '/m1'}) RETURN m.strength AS s", game=game).records
    assert strength[0]["s"] == 0.6
    assert ensure_schema(driver, None, 384).rebuilt == ()


def test_unwind_batch_and_call_in_transactions(driver: neo4j.Driver, schema: object, game: str) -> None:
    rows = [{"uid": f"{game}/e{i}", "i": i} for i in range(5000)]
    summary = driver.execute_query("UNWIND $rows AS r MERGE (e:Event {uid: r.uid}) SET e.game = $game, e.i = r.i",
                                   rows=rows, game=game).summary
    assert summary.counters.nodes_created == 5000
    with driver.session() as session:
        session.run("MATCH (e:Event {game: $game}) CALL (e) { SET e.doubled = e.i * 2 } IN TRANSACTIONS OF 1000 ROWS",
                    game=game).consume()
    records, _, _ = driver.execute_query(
        "MATCH (e:Event {game: $game}) RETURN count(e) AS n, sum(e.doubled) AS total", game=game)
    assert records[0]["n"] == 5000
    assert records[0]["total"] == 2 * sum(range(5000))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_init_without_neo4j_exits_1_with_one_line_naming_the_uri() -> None:
    uri = f"bolt://127.0.0.1:{_free_port()}"
    result = CliRunner().invoke(main, ["--uri", uri, "init"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1
    assert uri in lines[0] and "graphmem neo4j start" in lines[0]
    assert "Traceback" not in result.output


def test_init_twice_through_the_cli(neo4j_uri: str, schema: object) -> None:
    runner = CliRunner()
    first = runner.invoke(main, ["--uri", neo4j_uri, "init", "--json"])
    assert first.exit_code == 0, first.output
    second = runner.invoke(main, ["--uri", neo4j_uri, "init"])
    assert second.exit_code == 0, second.output
    assert "nothing to create" in second.output
    assert "vector index: 384 dimensions" in second.output


UNKNOWN_PROPERTY = "MATCH (t:Thought) WHERE t.never_set_anywhere IS NULL RETURN count(t) AS n"
"""A query naming a property key nothing has set: Neo4j answers it with the notification 01N52."""


def test_a_query_naming_a_property_nothing_has_set_logs_nothing_through_graphmems_drivers(
        neo4j_uri: str, schema: object, caplog: pytest.LogCaptureFixture) -> None:
    """A young graph lacks optional properties (Thought.forgotten): Neo4j answers each query naming one with 01N52
    "property key does not exist", which the driver logs as a WARNING (a benchmark's stderr on a fresh database was
    full of them). graphmem's drivers (the CLI's and the service's, the benchmarks') ask Neo4j not to send that
    classification, UNRECOGNIZED, and still get the others: a cartesian product's PERFORMANCE notification."""
    from bench.run import bench_driver
    from graphmem.settings import load_settings
    from graphmem.store.connection import open_driver

    caplog.set_level(logging.DEBUG, logger="neo4j.notifications")
    auth = (os.environ.get("NEO4J_USER") or "neo4j", os.environ.get("NEO4J_PASSWORD") or "graphmem")  # as conftest's
    with neo4j.GraphDatabase.driver(neo4j_uri, auth=auth) as plain:  # the driver's default: told, and logged
        plain.execute_query(UNKNOWN_PROPERTY)
    assert [r.levelno for r in caplog.records if "01N52" in r.getMessage()] == [logging.WARNING], caplog.text
    caplog.clear()
    settings = load_settings(environ={"NEO4J_URI": neo4j_uri, "NEO4J_USER": auth[0], "NEO4J_PASSWORD": auth[1]})
    with open_driver(settings, check=False) as own, bench_driver(neo4j_uri) as bench:
        for driver in (own, bench):
            driver.execute_query(UNKNOWN_PROPERTY)
            cartesian = driver.execute_query("MATCH (a:Thought), (b:Thought) RETURN count(*) AS n").summary
            assert [s.raw_classification for s in cartesian.gql_status_objects
                    if s.is_notification] == ["PERFORMANCE"], cartesian.gql_status_objects
    assert not [r for r in caplog.records if "01N5" in r.getMessage()], caplog.text


def test_no_shipped_query_uses_cypher_that_neo4j_deprecates(neo4j_uri: str, schema: object) -> None:
    """Each query under ``cypher/`` planned (EXPLAIN, nothing runs) by graphmem's driver draws no DEPRECATION
    notification: those are kept (graphmem.store.connection.QUIET_NOTIFICATIONS), so one would print a warning
    to the stderr of every command that runs the query (``CALL {`` without a scope clause did, in
    cypher/schema/recall_backfill.cypher)."""
    from graphmem.settings import load_settings
    from graphmem.store.connection import open_driver
    from graphmem.store.queries import cypher, query_names, with_identifiers

    auth = (os.environ.get("NEO4J_USER") or "neo4j", os.environ.get("NEO4J_PASSWORD") or "graphmem")
    settings = load_settings(environ={"NEO4J_URI": neo4j_uri, "NEO4J_USER": auth[0], "NEO4J_PASSWORD": auth[1]})
    deprecated: dict[str, list[str]] = {}
    unplanned: dict[str, str] = {}
    with open_driver(settings, check=False) as own, own.session() as session:
        for name in query_names():
            try:
                text = cypher(name)  # a label, type or index name the caller fills in: any will do to plan it
                text = with_identifiers(text, **{key: "Memory" for key in re.findall(r"\{(\w+)\}", text)})
                summary = session.run("EXPLAIN " + text).consume()
            except neo4j.exceptions.Neo4jError as e:
                unplanned[name] = e.message
                continue
            found = [s.status_description for s in summary.gql_status_objects if s.raw_classification == "DEPRECATION"]
            if found:
                deprecated[name] = found
    # id() is deprecated without a replacement; the recall's reads of candidates take node ids on purpose (cheaper to
    # decode than uids or element ids: graphmem/store/reader.py, MemoryReader.uids) in sessions asking for no
    # notifications
    node_ids = {name for name, found in deprecated.items()
                if name.startswith("recall/") and all("id is deprecated" in text for text in found)}
    assert {name: found for name, found in deprecated.items() if name not in node_ids} == {}
    assert unplanned == {}
