"""What ingest refuses before writing anything (a batch size below 1, two files of one game, a changed log under a
stored game id), and `graphmem delete`, the way to replace a stored game."""

from __future__ import annotations

import uuid
from pathlib import Path

import neo4j
import pytest

from graphmem import GameConflict, MemoryService
from tests.integration.test_ingest import Invoke, small_game_lines, write

pytestmark = pytest.mark.neo4j



def game_nodes(driver: neo4j.Driver, game: str) -> int:
    return int(driver.execute_query("MATCH (n {game: $game}) RETURN count(n) AS n", game=game).records[0]["n"])


@pytest.mark.parametrize("size", ["0", "-5"])
def test_a_batch_size_below_1_is_a_usage_error_and_writes_nothing(tmp_path: Path, cli: Invoke,
                                                                   driver: neo4j.Driver, size: str) -> None:
    game = f"guard-batch-{uuid.uuid4().hex[:8]}"
    result = cli("ingest", "--batch-size", size, str(write(tmp_path / "g.jsonl", small_game_lines(game))))
    assert result.exit_code == 2 and "--batch-size" in result.output and "Traceback" not in result.output
    assert game_nodes(driver, game) == 0


def test_two_files_of_one_game_are_refused_naming_both_files(tmp_path: Path, cli: Invoke) -> None:
    game = f"guard-dup-{uuid.uuid4().hex[:8]}"
    first = write(tmp_path / "a.jsonl", small_game_lines(game))
    second = write(tmp_path / "b.jsonl", small_game_lines(game))
    result = cli("ingest", str(tmp_path))
    assert result.exit_code == 2
    assert f"{game} in {first}, {second}" in result.output


def test_a_changed_log_under_a_stored_game_id_is_refused_until_the_game_is_deleted(
        tmp_path: Path, cli: Invoke, driver: neo4j.Driver) -> None:
    game = f"guard-changed-{uuid.uuid4().hex[:8]}"
    lines = small_game_lines(game)
    assert cli("ingest", str(write(tmp_path / "g.jsonl", lines))).exit_code == 0
    stored = game_nodes(driver, game)
    assert cli("ingest", str(tmp_path / "g.jsonl")).exit_code == 0  # the same log again: accepted, changes nothing
    assert game_nodes(driver, game) == stored

    changed = [line.replace("Thomas is a traitor. I saw", "Marcus is a sneak. I saw") for line in lines]
    assert changed != lines
    result = cli("ingest", str(write(tmp_path / "changed.jsonl", changed)))
    assert result.exit_code == 1
    assert f"game '{game}' is stored from a different log" in result.output and "nothing was written" in result.output
    assert "an event without an `id` is numbered by its line" in result.output  # what a blank line removed does
    assert game_nodes(driver, game) == stored
    texts = driver.execute_query("MATCH (m:Memory {game: $game}) WHERE m.text CONTAINS 'Marcus is a sneak' "
                                 "RETURN count(m) AS n", game=game).records[0]["n"]
    assert texts == 0

    refused = cli("delete", "--game", game, input="n\n")
    assert refused.exit_code == 1 and game_nodes(driver, game) == stored  # aborted at the confirmation
    deleted = cli("delete", "--game", game, "--yes")
    assert deleted.exit_code == 0 and f"deleted game '{game}'" in deleted.output and "Memory" in deleted.output
    assert game_nodes(driver, game) == 0
    assert cli("ingest", str(tmp_path / "changed.jsonl")).exit_code == 0
    texts = driver.execute_query("MATCH (m:Memory {game: $game}) WHERE m.text CONTAINS 'Marcus is a sneak' "
                                 "RETURN count(m) AS n", game=game).records[0]["n"]
    assert texts > 0
    cli("delete", "--game", game, "--yes")


def test_delete_of_an_unknown_game_exits_1_and_leaves_the_others(cli: Invoke, driver: neo4j.Driver) -> None:
    before = int(driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"])
    result = cli("delete", "--game", "no-such-game-here", "--yes")
    assert result.exit_code == 1 and "no game 'no-such-game-here' is stored" in result.output
    assert int(driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"]) == before


def test_a_live_game_is_listed_as_live_and_a_log_cannot_be_ingested_over_it(
        tmp_path: Path, cli: Invoke, driver: neo4j.Driver, embedder: object) -> None:
    import json

    game = f"guard-live-{uuid.uuid4().hex[:8]}"
    lines = small_game_lines(game)
    with MemoryService(driver=driver, embedder=embedder) as service:  # type: ignore[arg-type]
        service.start_game(json.loads(lines[0]))
        service.add_events(game, [json.loads(line) for line in lines[1:6]])
    listed = [line for line in cli("games").output.splitlines() if line.startswith(game)]
    assert listed and "live (fed through MemoryService)" in listed[0] and "INCOMPLETE" not in listed[0]
    with pytest.raises(GameConflict, match="stored as a live game"):
        MemoryService(driver=driver, embedder=embedder).ingest(write(tmp_path / "g.jsonl", lines))  # type: ignore[arg-type]
    cli("delete", "--game", game, "--yes")


def test_a_longer_log_of_a_stored_game_is_accepted_and_a_shorter_one_refused(
        tmp_path: Path, cli: Invoke, driver: neo4j.Driver) -> None:
    """A game ingested while it was going on, then again once it went on: the longer log adds what is new."""
    game = f"guard-grows-{uuid.uuid4().hex[:8]}"
    lines = small_game_lines(game)
    assert cli("ingest", str(write(tmp_path / "start.jsonl", lines[:15]))).exit_code == 0
    started = game_nodes(driver, game)
    assert cli("ingest", str(write(tmp_path / "all.jsonl", lines))).exit_code == 0
    assert game_nodes(driver, game) > started
    shorter = cli("ingest", str(tmp_path / "start.jsonl"))
    assert shorter.exit_code == 1 and "is stored from a longer log" in shorter.output
    cli("delete", "--game", game, "--yes")


def test_an_unknown_profile_is_named_once_with_its_file_and_line(tmp_path: Path, cli: Invoke,
                                                                  driver: neo4j.Driver) -> None:
    game = f"guard-profile-{uuid.uuid4().hex[:8]}"
    lines = small_game_lines(game)
    lines[0] = lines[0].replace('"profile": "analytical"', '"profile": "goldfish"')
    path = write(tmp_path / "g.jsonl", lines)
    result = cli("ingest", str(path))
    assert result.exit_code == 1 and "goldfish" in result.output and "line 1" in result.output
    assert result.output.count(str(path)) == 2  # the summary line and the problem's line, not twice on one line
    assert game_nodes(driver, game) == 0


def test_a_longer_log_of_a_game_decayed_past_its_end_decays_the_new_memories_too(
        tmp_path: Path, cli: Invoke, driver: neo4j.Driver) -> None:
    game = f"guard-later-{uuid.uuid4().hex[:8]}"
    lines = small_game_lines(game)
    assert cli("ingest", str(write(tmp_path / "start.jsonl", lines[:15]))).exit_code == 0
    assert cli("phase", "advance", "--game", game, "--to", "20").exit_code == 0
    assert cli("ingest", str(write(tmp_path / "all.jsonl", lines))).exit_code == 0
    behind = driver.execute_query("MATCH (m:Memory {game: $game}) WHERE m.decayed_to <> 20 RETURN count(m) AS n",
                                  game=game).records[0]["n"]
    assert behind == 0
    cli("delete", "--game", game, "--yes")
