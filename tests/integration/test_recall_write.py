"""A writing recall's write is one statement (graphmem.store.versions.run_raising_versions): the move fence, the
Idempotency-Key's fence, the version raise and the memories' write. What it must still do, against a real Neo4j: write
the recalled memories and raise the owner's version, and write nothing at all when the game is being moved or the
request's key was taken over by a retry."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import neo4j
import pytest

from graphmem.errors import GameMoving, RetryConflict
from graphmem.model.params import Parameters
from graphmem.recall import RecallResult, recall
from graphmem.store.games import MOVING_TO
from graphmem.store.idempotency import Answer, carry_out_once
from graphmem.store.keys import player_uid
from graphmem.store.queries import in_sequence, with_identifiers
from tests.integration.helpers import recall_counts

pytestmark = pytest.mark.neo4j
SMALL = Path(__file__).resolve().parents[2] / "examples" / "small-game.jsonl"


@pytest.fixture()
def game(fresh_game: Callable[..., str]) -> str:
    return fresh_game(SMALL, "recall-write")


@pytest.fixture()
def run(driver: neo4j.Driver, embedder: Any, params: Parameters, game: str) -> Callable[..., RecallResult]:
    def call(**options: Any) -> RecallResult:
        return recall(driver, None, game, "Marcus", topic="Does Marcus have medical training?", params=params,
                      embedder=embedder, **options)
    return call


def version(driver: neo4j.Driver, game: str) -> int | None:
    records = driver.execute_query("MATCH (v:MemoryVersion {uid: $uid}) RETURN v.version AS version",
                                   uid=player_uid(game, "Marcus")).records
    return int(records[0]["version"]) if records else None


def test_a_writing_recall_writes_its_memories_and_raises_the_version_twice(
        driver: neo4j.Driver, game: str, run: Callable[..., RecallResult]) -> None:
    before, raised = recall_counts(driver, game, "Marcus"), version(driver, game) or 0
    result = run()
    after = recall_counts(driver, game, "Marcus")
    assert result.written == len(result.memories) > 0
    assert {uid for uid in after if after[uid] != before[uid]} == {m.uid for m in result.memories}
    assert all(after[m.uid] == before[m.uid] + 1 for m in result.memories)
    assert version(driver, game) == raised + 2  # in the write's statement, and again once it has committed
    changes = driver.execute_query("MATCH (v:MemoryVersion {uid: $uid}) RETURN v.changed_uids AS uids",
                                   uid=player_uid(game, "Marcus")).records[0]["uids"]
    assert set(changes[-len(result.memories):]) == {m.uid for m in result.memories}  # the change log names them


def test_a_game_being_moved_takes_no_writing_recall(driver: neo4j.Driver, game: str,
                                                    run: Callable[..., RecallResult]) -> None:
    run()  # the version node exists: a refused write must not raise it either
    before, raised = recall_counts(driver, game, "Marcus"), version(driver, game)
    driver.execute_query(with_identifiers("MATCH (g:Game {uid: $game}) SET g.{key} = 'elsewhere'", key=MOVING_TO),
                         game=game)
    try:
        with pytest.raises(GameMoving, match=f"game '{game}' is being moved to target 'elsewhere'"):
            run()
        assert recall_counts(driver, game, "Marcus") == before and version(driver, game) == raised
        assert run(dry_run=True).memories  # a look writes nothing and is not refused
    finally:
        driver.execute_query(with_identifiers("MATCH (g:Game {uid: $game}) REMOVE g.{key}", key=MOVING_TO), game=game)


def test_a_writing_recall_whose_key_a_retry_took_over_writes_nothing(driver: neo4j.Driver, game: str,
                                                                    run: Callable[..., RecallResult]) -> None:
    before, raised = recall_counts(driver, game, "Marcus"), version(driver, game)
    key = f"idempotency/test-{uuid.uuid4().hex}"

    def overtaken() -> Answer:
        # a retry with the same key takes it over (its lease of 0 s has passed) and answers; this attempt goes on
        carry_out_once(driver, None, key, game, "h", lambda: Answer(200, {}), lease=0.0)
        run()
        return Answer(200, {})

    with pytest.raises(RetryConflict, match="took it over"):
        carry_out_once(driver, None, key, game, "h", overtaken)
    assert recall_counts(driver, game, "Marcus") == before and version(driver, game) == raised


def test_queries_in_sequence_return_each_column_once() -> None:
    statement = in_sequence("targets/moving", "recall/raise_versions", "recall/write")
    assert statement.startswith("CYPHER replan=skip\nCALL () {\n") and statement.count("CALL () {\n") == 4
    assert statement.endswith("RETURN moving_to, versions, written")
    assert "@param" not in statement
    with pytest.raises(ValueError, match="each column once"):
        in_sequence("recall/raise_versions", "recall/raise_again")
