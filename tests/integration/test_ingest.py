"""Ingest against a real Neo4j and the real embedding model: bad input changes nothing, re-ingest changes nothing,
an interrupted ingest is completed by the next run."""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path

import neo4j
import pytest
from click.testing import Result

from graphmem.importers import load_game_log
from graphmem.ingest.encode import encode_game
from graphmem.store.keys import scope_token
from graphmem.store.schema import FULLTEXT_SEARCH
from graphmem.store.writer import write_game_rows

pytestmark = pytest.mark.neo4j
ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "examples" / "small-game.jsonl"
PLOMP = ROOT / "examples" / "traitors-llm" / "433y9yyp"

Invoke = Callable[..., Result]



def total_nodes(driver: neo4j.Driver) -> int:
    return int(driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"])


def small_game_lines(game: str) -> list[str]:
    lines = SMALL.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["game"] = game
    return [json.dumps(header)] + lines[1:]


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def corrupt(kind: str, tmp_path: Path) -> tuple[Path, str]:
    """A bad file of the given kind and a fragment its error message must hold."""
    lines = small_game_lines(f"bad-{kind}")
    if kind == "truncated":
        lines[5] = lines[5][: len(lines[5]) // 2]
        return write(tmp_path / "g.jsonl", lines), "line 6"
    if kind == "unknown-player":
        lines[6] = lines[6].replace('"speaker": "Eleanor"', '"speaker": "Nobody"')
        return write(tmp_path / "g.jsonl", lines), "Nobody"
    if kind == "unknown-kind":
        lines[4] = json.dumps({"kind": "teleport", "player": "Marcus"})
        return write(tmp_path / "g.jsonl", lines), "teleport"
    if kind == "phase-backwards":
        index = next(i for i, line in enumerate(lines) if '"day": 2' in line)
        lines[index] = lines[index].replace('"day": 2', '"day": 0')
        return write(tmp_path / "g.jsonl", lines), f"line {index + 1}"
    if kind == "duplicate-id":
        lines[2] = lines[2].replace('"id": "role-thomas"', '"id": "role-sarah"')
        return write(tmp_path / "g.jsonl", lines), "role-sarah"
    if kind == "empty":
        return write(tmp_path / "g.jsonl", []), "empty"
    if kind == "binary":
        path = tmp_path / "g.jsonl"
        path.write_bytes(b"\x00\x01\x02PK\x03\x04" * 50)
        return path, "binary"
    if kind == "not-utf8":
        path = write(tmp_path / "g.jsonl", lines)
        path.write_bytes(path.read_bytes().replace(b"Marcus has medical", b"Marcus h\xe4s medical"))
        return path, "UTF-8"
    if kind == "plomp-unknown-type":
        game = tmp_path / "badplomp"
        shutil.copytree(PLOMP, game)
        data = json.loads((game / "plomp.json").read_text(encoding="utf-8"))
        events = [i for i in data["buffer_items"] if i["type"] == "event"]
        events[10]["data"]["payload"]["plomp_display_event_type"] = "TIME_TRAVEL"
        (game / "plomp.json").write_text(json.dumps(data), encoding="utf-8")
        return game, "TIME_TRAVEL"
    raise AssertionError(kind)


BAD = ["truncated", "unknown-player", "unknown-kind", "phase-backwards", "duplicate-id", "empty", "binary",
       "not-utf8", "plomp-unknown-type"]


@pytest.mark.parametrize("kind", BAD)
def test_bad_input_exits_1_naming_the_file_and_reason_and_writes_nothing(
        kind: str, tmp_path: Path, cli: Invoke, driver: neo4j.Driver) -> None:
    path, fragment = corrupt(kind, tmp_path)
    before = total_nodes(driver)
    result = cli("ingest", str(path))
    assert result.exit_code == 1, result.output
    assert str(path.name) in result.output and fragment in result.output
    assert "Traceback" not in result.output
    assert total_nodes(driver) == before


def test_all_bad_lines_are_reported_together(tmp_path: Path, cli: Invoke) -> None:
    lines = small_game_lines("bad-several")
    lines[6] = lines[6].replace('"speaker": "Eleanor"', '"speaker": "Nobody"')
    lines[9] = lines[9][:20]
    result = cli("ingest", str(write(tmp_path / "g.jsonl", lines)))
    assert result.exit_code == 1
    assert "line 7" in result.output and "line 10" in result.output


def test_several_bad_files_lead_each_problem_with_its_file(tmp_path: Path, cli: Invoke) -> None:
    first, second = small_game_lines("bad-first"), small_game_lines("bad-second")
    first[6] = first[6].replace('"speaker": "Eleanor"', '"speaker": "Nobody"')
    second[9] = second[9][:20]
    bad2, bad3 = write(tmp_path / "bad2.jsonl", first), write(tmp_path / "bad3.jsonl", second)
    result = cli("ingest", str(bad2), str(bad3))
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    # as the single-file form "FILE: line 3, field 'speaker': ...", never "2 files: line 7, ...: FILE: ..."
    assert any(line.strip().startswith(f"{bad2}: line 7, field 'speaker': ") for line in lines), result.output
    assert any(line.strip().startswith(f"{bad3}: line 10") for line in lines), result.output
    assert "2 files: line" not in result.output and f": {bad2}:" not in result.output


def test_skip_invalid_writes_the_valid_events_and_lists_the_rejected(tmp_path: Path, cli: Invoke,
                                                                     driver: neo4j.Driver) -> None:
    lines = small_game_lines("skip-invalid")
    lines[9] = lines[9][:20]
    result = cli("ingest", "--skip-invalid", "--json", str(write(tmp_path / "g.jsonl", lines)))
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 1 and len(summary["rejected"]) == 1 and "line 10" in summary["rejected"][0]
    assert summary["events"] == len(lines) - 2  # the log's events but the rejected one (the header is no event)
    valid = [json.loads(line) for i, line in enumerate(lines[1:], 2) if i != 10]
    stored = sum(1 for e in valid if e["kind"] not in ("phase", "emotion", "thought"))  # those are no Event nodes
    events = driver.execute_query("MATCH (e:Event {game: 'skip-invalid'}) RETURN count(e) AS n").records[0]["n"]
    assert events == stored > 0


def test_convert_and_ingest_count_the_same_events(cli: Invoke, tmp_path: Path) -> None:
    """A fresh user saw 157 events from `graphmem convert` and 146 from `graphmem ingest` for the same game: ingest
    counted the Event nodes it wrote (no phase events: each phase is a Phase node). Both count the log's events now,
    as a live game's total_events does; the Event nodes are `graphmem stats`'s."""
    path = ROOT / "examples" / "avalon-nlu" / "9avmeG.json"
    converted = cli("convert", str(path), "-o", str(tmp_path / "9avmeG.jsonl"))
    assert converted.exit_code == 0, converted.output
    assert "game avalon-nlu-9avmeG, 157 events, 12 phases" in converted.stderr
    stored_before = "avalon-nlu-9avmeG" in {g["game"] for g in json.loads(cli("games", "--json").output)}
    try:
        ingested = cli("ingest", str(path))
        assert ingested.exit_code == 0, ingested.output
        assert "1 game, 157 events, " in ingested.stdout, ingested.stdout  # not "1 games"
        summary = json.loads(cli("ingest", "--json", str(path)).output)  # stored now: skipped, counted alike
        assert (summary["events"], summary["per_game"][0]["events"]) == (157, 157)
        stats = json.loads(cli("stats", "--game", "avalon-nlu-9avmeG", "--json").output)
        assert stats["nodes"]["Event"] == 157 - 11  # the 11 phase events are Phase nodes
    finally:
        if not stored_before:
            assert cli("delete", "--game", "avalon-nlu-9avmeG", "--yes").exit_code == 0


def test_ingest_twice_changes_nothing_and_stats_count_what_was_written(tmp_path: Path, cli: Invoke) -> None:
    game = f"twice-{uuid.uuid4().hex[:8]}"  # a fresh id: the first run must really ingest, whatever is stored
    path = write(tmp_path / "twice.jsonl", small_game_lines(game))
    first = cli("ingest", "--json", str(path))
    assert first.exit_code == 0, first.output
    summary = json.loads(first.output)
    stats_before = json.loads(cli("stats", "--game", game, "--json").output)
    second = json.loads(cli("ingest", "--json", str(path)).output)
    assert second["nodes_created"] == 0 and second["relationships_created"] == 0
    assert second["per_game"][0]["unchanged"] and second["texts_embedded"] == 0  # skipped: nothing re-embedded
    assert second["memories"] == summary["memories"]
    assert summary["memories_per_second"] > 0 and second["memories_per_second"] == 0  # nothing ingested the 2nd time
    text = cli("ingest", str(path))
    assert "1 of 1 games already stored from the same logs: skipped" in text.output and "memories/s" not in text.output
    stats_after = json.loads(cli("stats", "--game", game, "--json").output)
    assert stats_after == stats_before
    assert stats_before["nodes"]["Memory"] == summary["memories"] == stats_before["relationships"]["REMEMBERS"]
    assert stats_before["nodes"]["Source"] == summary["memories"]
    assert stats_before["memories_by_source"]["overheard"] == 1
    listing = json.loads(cli("games", "--json").output)
    assert {"game": game, "complete": True}.items() <= next(g for g in listing if g["game"] == game).items()


def test_every_memory_carries_its_owners_full_text_scope(tmp_path: Path, cli: Invoke, driver: neo4j.Driver) -> None:
    assert cli("ingest", str(write(tmp_path / "scoped.jsonl", small_game_lines("scoped-1")))).exit_code == 0
    rows = driver.execute_query("MATCH (m:Memory {game: $game}) RETURN m.owner AS owner, m.scope AS scope",
                                game="scoped-1").records
    assert rows and all(r["scope"] == scope_token("scoped-1", r["owner"]) for r in rows)
    assert len({r["scope"] for r in rows}) == len({r["owner"] for r in rows}) == 5
    hits = driver.execute_query(
        FULLTEXT_SEARCH + "RETURN DISTINCT node.owner AS owner",
        q=f"(medical training) AND scope:{scope_token('scoped-1', 'Marcus')}^0").records
    assert [r["owner"] for r in hits] == ["Marcus"]


def test_an_interrupted_ingest_is_completed_by_the_next_run(tmp_path: Path, cli: Invoke, driver: neo4j.Driver,
                                                           embedder: object, params: object) -> None:
    game = f"half-{uuid.uuid4().hex[:8]}"  # a fresh id: the first half must be all that is stored
    path = write(tmp_path / "half.jsonl", small_game_lines(game))
    encoded = encode_game(load_game_log(path), params)  # type: ignore[arg-type]
    total = len(encoded.memories)
    encoded.memories = encoded.memories[: total // 2]  # the run "dies" after half of the memories
    vectors = embedder.encode([m.text for m in encoded.memories])  # type: ignore[attr-defined]
    write_game_rows(driver, None, encoded, {m.uid: v.tolist() for m, v in zip(encoded.memories, vectors)}, [],
                       batch_size=7)
    assert json.loads(cli("games", "--json").output)[0] is not None
    incomplete = [g for g in json.loads(cli("games", "--json").output) if g["game"] == game]
    assert incomplete[0]["complete"] is False
    result = cli("ingest", "--json", str(path))
    assert result.exit_code == 0, result.output
    stats = json.loads(cli("stats", "--game", game, "--json").output)
    assert stats["nodes"]["Memory"] == total == stats["relationships"]["REMEMBERS"] == stats["relationships"]["FROM"]
    again = json.loads(cli("ingest", "--json", str(path)).output)
    assert again["nodes_created"] == 0 and again["relationships_created"] == 0
    assert again["per_game"][0]["unchanged"]  # the completed game now carries its log's hash


def test_unknown_game_in_stats_exits_1_listing_the_stored_games(cli: Invoke, tmp_path: Path) -> None:
    cli("ingest", str(write(tmp_path / "known.jsonl", small_game_lines("known"))))
    result = cli("stats", "--game", "knownx")
    assert result.exit_code == 1
    assert "no game 'knownx' is stored" in result.output and "known" in result.output.split("stored (")[1]


def test_unknown_format_is_a_usage_error(cli: Invoke) -> None:
    result = cli("ingest", "--format", "mafia-xyz", str(SMALL))
    assert result.exit_code == 2
    assert "traitors-plomp" in result.output
