"""The writer: canonical JSONL that reads back equal."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.importers import load_game_log
from graphmem.logs import GameLog, GameLogValidator, parse_game_log, read_game_log, write_game_log
from graphmem.logs.schema import has_visible_text
from tests.unit.logs.logs_helpers import EXAMPLES, HEADER


def same(a: GameLog, b: GameLog) -> None:
    assert a.header == b.header
    assert [e.event for e in a.events] == [e.event for e in b.events]
    assert [(e.line, e.phase, e.day, e.phase_name) for e in a.events] == \
        [(e.line, e.phase, e.day, e.phase_name) for e in b.events]
    assert a.phases == b.phases


def test_round_trip_of_the_small_example(tmp_path: Path) -> None:
    log = read_game_log(EXAMPLES / "small-game.jsonl")
    out = tmp_path / "out.jsonl"
    write_game_log(log, out)
    same(log, read_game_log(out))
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(log.events)
    first_event = json.loads(lines[1])
    assert list(first_event)[:2] == ["kind", "id"]
    assert "polarity" not in lines[6]  # defaults are left out (polarity true)


def test_round_trip_of_a_converted_real_game(tmp_path: Path) -> None:
    log = load_game_log(EXAMPLES / "traitors-llm" / "433y9yyp", "traitors-plomp")
    out = tmp_path / "433y9yyp.jsonl"
    write_game_log(log, out)
    back = read_game_log(out)
    same(log, back)
    assert back.imported_from == "traitors-plomp"
    assert out.read_text(encoding="utf-8") == (EXAMPLES / "433y9yyp.jsonl").read_text(encoding="utf-8")


def test_write_to_a_stream_keeps_non_ascii_text() -> None:
    validator = GameLogValidator(HEADER)
    validator.feed({"kind": "say", "speaker": "Marcus", "to": "all", "channel": "public", "text": "Café 🧐 \"quoted\""})
    stream = io.StringIO()
    write_game_log(validator.game_log(), stream)
    text = stream.getvalue()
    assert "Café 🧐" in text and text.endswith("\n")
    assert parse_game_log(text.splitlines(), "stream").events[0].event.text == 'Café 🧐 "quoted"'  # type: ignore[union-attr]


def test_defaulted_ids_are_written_so_events_keep_them_after_a_rejected_line(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    say: dict[str, Any] = {"kind": "say", "speaker": "Marcus", "to": "all", "channel": "public", "text": "hi"}
    src.write_text("\n".join(json.dumps(o) for o in (HEADER, say, {"kind": "bogus"}, say)) + "\n", encoding="utf-8")
    log = read_game_log(src, skip_invalid=True)
    out = tmp_path / "out.jsonl"
    write_game_log(log, out)
    back = read_game_log(out)
    assert [e.id for e in back.events] == ["2", "4"]
    assert [e.line for e in back.events] == [2, 3]


_text = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), min_size=1).filter(
    has_visible_text)


@settings(max_examples=60)
@given(texts=st.lists(_text, min_size=1, max_size=5),
       fear=st.floats(min_value=0, max_value=1, allow_nan=False),
       day=st.integers(min_value=0, max_value=10**6))
def test_round_trip_of_generated_events(texts: list[str], fear: float, day: int) -> None:
    validator = GameLogValidator(HEADER)
    validator.feed({"kind": "phase", "day": day, "name": "social"})
    for text in texts:
        validator.feed({"kind": "say", "speaker": "Sarah", "to": ["Marcus", "Eleanor"], "channel": "private",
                        "text": text, "emotion": {"Marcus": {"fear": fear}}})
    log = validator.game_log()
    stream = io.StringIO()
    write_game_log(log, stream)
    same(log, parse_game_log(stream.getvalue().split("\n"), "generated"))


def test_the_log_hash_names_what_a_log_stores(tmp_path: Path) -> None:
    """Same content from a rewritten file: same hash; a changed event: another; a longer log begins with the
    shorter's hash; a new title is not a new game."""
    from graphmem.logs.writer import log_sha256

    path = EXAMPLES / "small-game.jsonl"
    log = read_game_log(path)
    write_game_log(log, tmp_path / "copy.jsonl")
    assert log_sha256(read_game_log(tmp_path / "copy.jsonl")) == log_sha256(log)
    lines = path.read_text(encoding="utf-8").splitlines()
    (tmp_path / "start.jsonl").write_text("\n".join(lines[:12]) + "\n", encoding="utf-8")
    start = read_game_log(tmp_path / "start.jsonl")
    assert log_sha256(log, len(start.events)) == log_sha256(start) != log_sha256(log)
    changed = [lines[0], *(line.replace("far too quiet", "very loud") for line in lines[1:])]
    assert changed != lines
    (tmp_path / "changed.jsonl").write_text("\n".join(changed) + "\n", encoding="utf-8")
    assert log_sha256(read_game_log(tmp_path / "changed.jsonl")) != log_sha256(log)
    retitled = json.loads(lines[0]) | {"title": "another title"}
    (tmp_path / "retitled.jsonl").write_text("\n".join([json.dumps(retitled), *lines[1:]]) + "\n", encoding="utf-8")
    assert log_sha256(read_game_log(tmp_path / "retitled.jsonl")) == log_sha256(log)
