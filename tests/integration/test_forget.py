"""``graphmem forget`` against a real Neo4j: a memory is tombstoned on request and kept for audit
(docs/model.md#lifecycle-states)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import CliRunner, Result

from graphmem.cli import main
from graphmem.errors import NotFound
from graphmem.jobs.contradictions import find_contradictions
from graphmem.jobs.decay import advance
from graphmem.jobs.forget import forget
from graphmem.model import Parameters
from tests.integration.helpers import clear

pytestmark = pytest.mark.neo4j
DISPUTE = Path(__file__).resolve().parents[1] / "data" / "jobs" / "dispute.jsonl"


@pytest.fixture()
def game(fresh_game: Callable[..., str]) -> str:
    """tests/data/jobs/dispute.jsonl under a fresh game id (deleted afterwards)."""
    return fresh_game(DISPUTE, "jobs-forget")


def props(driver: neo4j.Driver, uid: str) -> dict[str, Any]:
    records = driver.execute_query("MATCH (:Player)-[:REMEMBERS]->(m:Memory {uid: $uid}) RETURN properties(m) AS m",
                                   uid=uid).records
    assert records, f"{uid} must still be stored and remembered"
    return dict(records[0]["m"])


def test_forget_tombstones_and_keeps_the_memory(driver: neo4j.Driver, game: str, params: Parameters) -> None:
    uid = f"{game}/memory/Cara/ava-tells-cara"
    phase = driver.execute_query("MATCH (g:Game {uid: $g}) RETURN g.decayed_to AS p", g=game).records[0]["p"]
    before = props(driver, uid)
    result = forget(driver, None, game, "Cara", uid, params, "Cara decided Ava lies")
    after = props(driver, uid)
    assert (result.changed, result.reason, result.phase) == (True, "Cara decided Ava lies", phase)
    assert (after["state"], after["tombstone_reason"], after["tombstone_phase"]) == \
        ("tombstoned", "Cara decided Ava lies", phase)
    assert {k: v for k, v in after.items() if not k.startswith(("state", "tombstone"))} == \
        {k: v for k, v in before.items() if not k.startswith(("state", "tombstone"))}
    again = forget(driver, None, game, "Cara", uid, params, "another reason")
    assert (again.changed, again.reason) == (False, "Cara decided Ava lies")  # idempotent, first reason kept
    # a forgotten memory no longer takes part: Cara's conflict about Dan has only one side left
    assert find_contradictions(driver, None, game, params).detected == 0


def test_forget_errors_name_what_is_wrong(driver: neo4j.Driver, game: str, params: Parameters) -> None:
    with pytest.raises(NotFound, match=r"no memory 'nope' is stored"):
        forget(driver, None, game, "Cara", "nope", params)
    ava_own = f"{game}/memory/Ava/ava-tells-cara"
    with pytest.raises(NotFound, match=r"is not a memory of player 'Cara'.*belongs to 'Ava'"):
        forget(driver, None, game, "Cara", ava_own, params)
    assert props(driver, ava_own)["state"] != "tombstoned"
    with pytest.raises(NotFound, match=r"no player 'Zed' in game .*Ava, Ben, Cara, Dan, Eve"):
        forget(driver, None, game, "Zed", ava_own, params)
    with pytest.raises(NotFound, match=f"no game '{game}x' is stored \\(.*{game}"):
        forget(driver, None, game + "x", "Cara", ava_own, params)


def test_cli_exit_codes(neo4j_uri: str, driver: neo4j.Driver, game: str) -> None:
    def cli(*args: str) -> Result:
        return CliRunner().invoke(main, ["--uri", neo4j_uri, "forget", *args])

    uid = f"{game}/memory/Cara/ben-tells-cara"
    done = cli("--game", game, "--player", "Cara", "--memory", uid, "--reason", "test", "--json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["changed"] is True and props(driver, uid)["state"] == "tombstoned"
    text = cli("--game", game, "--player", "Cara", "--memory", uid)
    assert text.exit_code == 0 and "was already tombstoned" in text.output
    missing = cli("--game", game, "--player", "Cara", "--memory", f"{game}/memory/Cara/nothing")
    assert missing.exit_code == 1 and f"no memory '{game}/memory/Cara/nothing'" in missing.output
    other = cli("--game", game, "--player", "Ben", "--memory", f"{game}/memory/Cara/eve-tells-cara")
    assert other.exit_code == 1 and "is not a memory of player 'Ben'" in other.output
    assert cli("--game", game, "--player", "Cara").exit_code == 2  # --memory is required


def test_forgetting_a_flashbulb_drops_the_thought_it_put_in_mind(driver: neo4j.Driver, memory: Any,
                                                                  embedder: Any, params: Parameters,
                                                                  tmp_path: Path) -> None:
    from graphmem.recall import recall
    from tests.integration.test_ingest import small_game_lines, write

    game = f"forget-wm-{uuid.uuid4().hex[:8]}"
    path = write(tmp_path / "small.jsonl", small_game_lines(game))
    memory.ingest(path)
    held = driver.execute_query(
        "MATCH (p:Player {game: $game})-[:THINKS]->(t:Thought {active: true}) WHERE t.trigger = 'flashbulb' "
        "RETURN p.name AS player, t.content AS content, t.uid AS uid ORDER BY uid LIMIT 1", game=game).records
    assert held, "the small game leaves a flashbulb in someone's working memory at its last phase"
    player, content, thought = held[0]["player"], held[0]["content"], held[0]["uid"]
    flashbulb = thought.replace("/thought/", "/memory/").removesuffix("-flashbulb")
    assert content in [t.content for t in recall(driver, None, game, player, params=params,
                                                 embedder=embedder, dry_run=True).thoughts]

    result = forget(driver, None, game, player, flashbulb, params)

    assert result.thoughts_dropped == 1
    memory.ingest(path)  # the same log again must not bring the thought back
    again = recall(driver, None, game, player, params=params, embedder=embedder, dry_run=True)
    assert content not in [t.content for t in again.thoughts]
    advance(driver, None, game, None, params)  # nor must the next phase's decay
    after = recall(driver, None, game, player, params=params, embedder=embedder, dry_run=True)
    assert content not in [t.content for t in after.thoughts]
    assert flashbulb not in [m.uid for m in after.memories]
    assert props(driver, flashbulb)["state"] == "tombstoned"  # the memory itself is kept for audit
    clear(driver, game)
