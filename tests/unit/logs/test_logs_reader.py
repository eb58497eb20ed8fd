"""The canonical reader: complete validation, every problem with line, field and reason, never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.errors import InvalidGameLog, LogProblem
from graphmem.logs import (
    EVENT_KINDS,
    GameLogValidator,
    RevealEvent,
    SayEvent,
    parse_game_log,
    read_game_log,
)
from tests.unit.logs.logs_helpers import EXAMPLES, FIXTURES, HEADER, jsonl

SAY: dict[str, Any] = {"kind": "say", "speaker": "Marcus", "to": ["Sarah"], "channel": "private", "text": "Hi"}


def problems_of(path: Path, **kwargs: Any) -> list[LogProblem]:
    with pytest.raises(InvalidGameLog) as info:
        read_game_log(path, **kwargs)
    assert info.value.path == str(path)
    return info.value.problems


MISSION_KINDS = {"propose", "outcome", "reflect"}
"""The kinds the mission example shows and the Traitors example does not (the players' reflections after the game
included)."""
IMPORTED_KINDS = {"belief"}
"""The kinds neither hand-written example shows: a belief stated during play comes from the Avalon-NLU games
(tests/unit/importers/test_importers_avalon_nlu.py)."""


def test_small_mission_game_uses_the_mission_kinds_side_names_and_secret_votes() -> None:
    log = read_game_log(EXAMPLES / "small-mission-game.jsonl")
    assert MISSION_KINDS <= {e.kind for e in log.events}
    assert (log.header.side_names.traitor, log.header.side_names.faithful) == ("evil", "good")
    secret = [e.event for e in log.events if e.kind == "vote" and getattr(e.event, "secret", False)]
    assert len(secret) == 12 and all(getattr(v, "ballot", None) in ("team", "quest") for v in secret)
    reveals = [e.event for e in log.events if isinstance(e.event, RevealEvent)]
    assert [r.role for r in reveals] == ["Merlin", "evil", "evil", "evil", "evil"]


def only(problems: list[LogProblem]) -> LogProblem:
    assert len(problems) == 1, problems
    return problems[0]


# --- a valid log -------------------------------------------------------------------------------------------------

def test_small_example_game_reads_with_phases_days_and_default_ids() -> None:
    log = read_game_log(EXAMPLES / "small-game.jsonl")
    assert log.game == "small-game"
    assert log.imported_from == "graphmem"
    assert {e.kind for e in log.events} == set(EVENT_KINDS) - MISSION_KINDS - IMPORTED_KINDS
    assert [(p.index, p.day, p.name) for p in log.phases] == [
        (0, 0, "pregame"), (1, 1, "breakfast"), (2, 1, "social"), (3, 1, "roundtable"), (4, 1, "banishment"),
        (5, 1, "night"), (6, 2, "breakfast"), (7, 2, "final")]
    first, second, third = log.events[:3]
    assert (first.id, first.line, first.phase, first.day, first.phase_name) == ("role-sarah", 2, 0, 0, "pregame")
    assert (third.kind, third.id, third.phase, third.day, third.phase_name) == ("phase", "4", 1, 1, "breakfast")
    murder = next(e for e in log.events if e.kind == "murder")
    assert (murder.day, murder.phase_name, murder.phase) == (2, "breakfast", 6)
    assert murder.event.by == ("Sarah", "Eleanor")  # type: ignore[union-attr]
    say = next(e.event for e in log.events if e.kind == "say")
    assert isinstance(say, SayEvent) and say.claims[0].polarity is True
    assert log.rejected == ()


def test_a_log_without_phase_events_keeps_everything_in_phase_0(write_log: Any) -> None:
    log = read_game_log(write_log(SAY, SAY | {"speaker": "Sarah", "to": ["Marcus"]}))
    assert [(e.phase, e.day, e.phase_name) for e in log.events] == [(0, 0, "pregame")] * 2
    assert [e.id for e in log.events] == ["2", "3"]


# --- each bad input ----------------------------------------------------------------------------------------------

def test_truncated_json_line_is_reported_with_its_line(write_log: Any) -> None:
    path = write_log(SAY, '{"kind": "say", "speaker": "Marcus", "to": ["Sar')
    p = only(problems_of(path))
    assert (p.line, p.field) == (3, "")
    assert "invalid JSON (the line is truncated)" in p.reason


def test_a_line_that_is_not_json_at_all_is_not_called_truncated(write_log: Any) -> None:
    p = only(problems_of(write_log(SAY, "garbage")))
    assert p.line == 3 and p.reason.startswith("invalid JSON: Expecting value at column 1")


def test_unknown_player_names_the_field_and_the_known_players(write_log: Any) -> None:
    path = write_log(SAY | {"speaker": "Bob"}, SAY | {"to": ["Sarah", "marcus"]})
    first, second = problems_of(path)
    assert (first.line, first.field) == (2, "speaker")
    assert first.reason.startswith("unknown player 'Bob'") and "Marcus, Sarah, Eleanor" in first.reason
    assert (second.line, second.field) == (3, "to[1]")
    assert "did you mean 'Marcus'" in second.reason


@pytest.mark.parametrize(("event", "field"), [
    ({"kind": "vote", "voter": "Marcus", "target": "Zed", "ballot": "banish"}, "target"),
    ({"kind": "murder", "victim": "Marcus", "by": ["Sarah", "Zed"]}, "by[1]"),
    ({"kind": "observe", "observers": ["Zed"], "text": "x"}, "observers[0]"),
    (SAY | {"about": ["Zed"]}, "about[0]"),
    (SAY | {"witnesses": ["Marcus", "Zed"]}, "witnesses[1]"),
    (SAY | {"emotion": {"Zed": {"fear": 0.5}}}, "emotion.Zed"),
    (SAY | {"claims": [{"subject": "Zed", "predicate": "role", "object": "traitor"}]}, "claims[0].subject"),
    (SAY | {"claims": [{"subject": "Marcus", "predicate": "voted_for", "object": "Zed"}]}, "claims[0].object"),
    ({"kind": "recruit", "player": "Marcus", "by": "Zed"}, "by"),
    ({"kind": "thought", "player": "Zed", "text": "x", "priority": 0.5, "persistence": 1}, "player"),
])
def test_every_player_valued_field_is_checked(write_log: Any, event: dict[str, Any], field: str) -> None:
    p = only(problems_of(write_log(event)))
    assert (p.line, p.field) == (2, field) and "unknown player 'Zed'" in p.reason


def test_claim_subjects_of_open_predicates_are_free_text(write_log: Any) -> None:
    claim = {"subject": "the murder", "predicate": "happened_at", "object": "the kitchen"}
    log = read_game_log(write_log(SAY | {"claims": [claim]}))
    assert log.events[0].event.claims[0].subject == "the murder"  # type: ignore[union-attr]


def test_unknown_event_kind_names_the_known_kinds(write_log: Any) -> None:
    p = only(problems_of(write_log({"kind": "accuse", "player": "Sarah"})))
    assert (p.line, p.field) == (2, "kind")
    assert "unknown event kind \"accuse\"" in p.reason
    assert "known kinds: phase, say, observe, vote, murder, banish, reveal, recruit, thought, emotion, end" in p.reason


def test_missing_kind_and_a_second_header_are_reported(write_log: Any) -> None:
    first, second = problems_of(write_log({"speaker": "Marcus"}, HEADER))
    assert (first.line, first.field) == (2, "kind") and "every event needs a kind" in first.reason
    assert (second.line, second.field) == (3, "kind") and "only appear on the first line" in second.reason


def test_phase_going_backwards(write_log: Any) -> None:
    path = write_log({"kind": "phase", "day": 2, "name": "social"}, {"kind": "phase", "day": 2, "name": "night"},
                     {"kind": "phase", "day": 1, "name": "breakfast"})
    p = only(problems_of(path))
    assert (p.line, p.field) == (4, "day")
    assert "phase goes backwards: day 1 after day 2" in p.reason


def test_duplicate_event_ids(write_log: Any) -> None:
    path = write_log(SAY | {"id": "a"}, SAY | {"id": "a"}, SAY | {"id": "2"})
    p = only(problems_of(path))
    assert (p.line, p.field) == (3, "id") and "duplicate event id 'a' (first used on line 2)" in p.reason
    # line 2 took the explicit id "a", so the id "2" on line 4 is free
    assert [e.id for e in read_game_log(path, skip_invalid=True).events] == ["a", "2"]


def test_explicit_id_clashes_with_a_defaulted_line_number(write_log: Any) -> None:
    p = only(problems_of(write_log(SAY, SAY | {"id": "2"})))
    assert (p.line, p.field) == (3, "id") and "duplicate event id '2' (first used on line 2)" in p.reason


def test_empty_file(tmp_path: Path) -> None:
    for content in (b"", b"\n  \n\n"):
        path = tmp_path / "empty.jsonl"
        path.write_bytes(content)
        p = only(problems_of(path, skip_invalid=True))
        assert (p.line, p.field) == (0, "") and p.reason.startswith("empty file")


def test_binary_file_raises_even_with_skip_invalid(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(jsonl(HEADER, SAY).encode() + b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    p = only(problems_of(path, skip_invalid=True))
    assert p.line == 5 and "binary file" in p.reason  # the first NUL byte: "\x89PNG\r", "\x1a", then NULs


def test_non_utf8_line_is_reported_with_its_line_and_byte(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    latin1 = '{"kind": "say", "speaker": "Marcus", "to": "all", "channel": "public", "text": "Caf\xe9"}'
    path.write_bytes(jsonl(HEADER, SAY).encode() + latin1.encode("latin-1") + b"\n" + jsonl(SAY).encode())
    p = only(problems_of(path))
    assert (p.line, p.field) == (3, "") and p.reason == "not valid UTF-8: byte 0xe9 at column 84"
    log = read_game_log(path, skip_invalid=True)
    assert [e.line for e in log.events] == [2, 4] and log.rejected == (p,)


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "\u200b", " \u200d\u2060\ufeff ", "\u200e\u200f",
                                  "\u3164", "\u0301", "\x1b"])
def test_say_without_text(write_log: Any, text: str) -> None:
    """Whitespace and invisible characters alone (zero-width space, joiners, bidi marks, a Hangul filler, a lone
    combining accent, a control) are no text."""
    p = only(problems_of(write_log(SAY | {"text": text})))
    assert (p.line, p.field) == (2, "text")
    assert p.reason == ("must contain a visible character (it is empty, or only whitespace or invisible characters "
                        "such as U+200B)")


@pytest.mark.parametrize("text", ["\u200bok", "e\u0301", "\U0001f642", "\u2014"])
def test_text_with_one_visible_character_is_text(write_log: Any, text: str) -> None:
    log = read_game_log(write_log(SAY | {"text": text}))
    assert [e.event.text for e in log.events if isinstance(e.event, SayEvent)] == [text]


def test_say_missing_text(write_log: Any) -> None:
    path = write_log({k: v for k, v in SAY.items() if k != "text"})
    p = only(problems_of(path))
    assert (p.line, p.field, p.reason) == (2, "text", "missing required field")
    assert str(pytest.raises(InvalidGameLog, read_game_log, path).value).startswith(f"{path}: 1 problem\n")


def test_several_bad_lines_are_reported_together() -> None:
    path = FIXTURES / "several-bad-lines.jsonl"
    found = [(p.line, p.field) for p in problems_of(path)]
    assert found == [(3, ""), (4, "speaker"), (5, "kind"), (7, "text"), (8, "id"), (9, "day")]
    message = str(pytest.raises(InvalidGameLog, read_game_log, path).value)
    assert message.startswith(f"{path}: 6 problems")
    assert f"{path}: line 4, field 'speaker': unknown player 'Bob'" in message


def test_skip_invalid_keeps_the_valid_events_and_lists_the_rejected() -> None:
    log = read_game_log(FIXTURES / "several-bad-lines.jsonl", skip_invalid=True)
    assert [(e.line, e.kind) for e in log.events] == [(2, "phase"), (6, "say"), (10, "vote")]
    assert [p.line for p in log.rejected] == [3, 4, 5, 7, 8, 9]
    assert log.events[-1].phase == 1 and log.events[-1].day == 1


# --- the header --------------------------------------------------------------------------------------------------

def test_first_line_must_be_the_header_even_with_skip_invalid(write_log: Any) -> None:
    path = write_log(SAY, header=False)
    p = only(problems_of(path, skip_invalid=True))
    assert (p.line, p.field) == (1, "kind") and "the first line must be the header" in p.reason


def test_invalid_header_reports_header_and_event_schema_problems(write_log: Any) -> None:
    header = HEADER | {"format": "graphmem/2", "players": [{"name": "Marcus", "role": "faithful"},
                                                              {"name": "marcus", "role": "traitor"}]}
    path = write_log(header, SAY | {"channel": "shout"}, header=False)
    found = [(p.line, p.field) for p in problems_of(path, skip_invalid=True)]
    assert found == [(1, "format"), (1, "players"), (2, "channel")]


@pytest.mark.parametrize(("change", "field"), [
    ({"game": "a/b"}, "game"),
    ({"players": []}, "players"),
    ({"players": [{"name": " Marcus", "role": "faithful"}]}, "players[0].name"),
    ({"players": [{"name": "Marcus", "role": "faithful", "age": 30}]}, "players[0].age"),
    ({"title": 7}, "title"),
    ({"extra": 1}, "extra"),
])
def test_header_fields_are_strict(write_log: Any, change: dict[str, Any], field: str) -> None:
    p = only(problems_of(write_log(HEADER | change, header=False)))
    assert (p.line, p.field) == (1, field)


# --- strict schema -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("event", "field", "reason"), [
    (SAY | {"channel": "shout"}, "channel",
     "Input should be 'private', 'public', 'roundtable' or 'traitors', got \"shout\""),
    (SAY | {"to": []}, "to", 'must be a non-empty list of player names or "all"'),
    (SAY | {"to": "everyone"}, "to", 'must be a non-empty list of player names or "all"'),
    (SAY | {"to": "all"}, "", 'a private statement needs a list of addressees in "to", not "all"'),
    (SAY | {"loud": True}, "loud", "unknown field"),
    (SAY | {"text": 5}, "text", "Input should be a valid string, got 5"),
    (SAY | {"t": "yesterday"}, "t", "must be an ISO 8601 timestamp such as 2025-04-12T15:27:09.773481"),
    (SAY | {"id": "a/b"}, "id", "an event id may only contain letters, digits and the characters . _ : -, got 'a/b'"),
    (SAY | {"emotion": {"Marcus": {"fear": 1.2}}}, "emotion.Marcus.fear", "Input should be less than or equal to 1"),
    (SAY | {"emotion": {"Marcus": {"fear": "high"}}}, "emotion.Marcus.fear", 'Input should be a valid number, got "high"'),
    (SAY | {"claims": [{"subject": "Marcus", "predicate": "role", "object": "x", "polarity": "yes"}]},
     "claims[0].polarity", 'Input should be a valid boolean, got "yes"'),
    ({"kind": "thought", "player": "Marcus", "text": "x", "priority": 1.5, "persistence": 1}, "priority",
     "Input should be less than or equal to 1"),
    ({"kind": "thought", "player": "Marcus", "text": "x", "priority": 0.5, "persistence": -1}, "persistence",
     "Input should be greater than or equal to 0"),
    ({"kind": "thought", "player": "Marcus", "text": "x", "priority": 0.5, "persistence": 1.5}, "persistence",
     "Input should be a valid integer, got 1.5"),
    ({"kind": "emotion", "player": "Marcus", "state": {"fear": -0.1}}, "state.fear",
     "Input should be greater than or equal to 0"),
    ({"kind": "phase", "day": "1", "name": "social"}, "day", 'Input should be a valid integer, got "1"'),
    ({"kind": "phase", "day": True, "name": "social"}, "day", "Input should be a valid integer, got true"),
    ({"kind": "vote", "voter": "Marcus", "ballot": "banish"}, "", "a banish vote needs a target"),
    ({"kind": "vote", "voter": "Marcus", "ballot": "end_game"}, "", "a vote needs a target or a choice"),
    ({"kind": "banish", "player": "Sarah", "votes": -2}, "votes", "Input should be greater than or equal to 0"),
    ({"kind": "murder", "victim": "Marcus", "by": []}, "by", "List should have at least 1 item after validation, not 0"),
    ({"kind": "observe", "observers": [], "text": "x"}, "observers",
     "List should have at least 1 item after validation, not 0"),
    ({"kind": "end"}, "winner", "missing required field"),
])
def test_schema_is_strict(write_log: Any, event: dict[str, Any], field: str, reason: str) -> None:
    p = only(problems_of(write_log(event)))
    assert (p.line, p.field) == (2, field)
    assert p.reason == reason


@pytest.mark.parametrize(("raw", "reason"), [
    ('{"kind": "say", "kind": "vote"}', "invalid JSON: duplicate key 'kind' in a JSON object"),
    ('{"kind": "thought", "player": "Marcus", "text": "x", "priority": NaN, "persistence": 1}',
     "invalid JSON: NaN is not valid JSON"),
    ("[1, 2]", "expected a JSON object, got list"),
])
def test_strict_json(write_log: Any, raw: str, reason: str) -> None:
    p = only(problems_of(write_log(raw)))
    assert (p.line, p.reason) == (2, reason)


def test_intensity_bounds_are_inclusive(write_log: Any) -> None:
    log = read_game_log(write_log(SAY | {"emotion": {"Marcus": {"fear": 0, "joy": 1}}}))
    assert log.events[0].event.emotion == {"Marcus": {"fear": 0.0, "joy": 1.0}}  # type: ignore[union-attr]


# --- unreadable input and never a traceback ----------------------------------------------------------------------

def test_missing_file_and_directory(tmp_path: Path) -> None:
    assert "cannot read the file" in only(problems_of(tmp_path / "nope.jsonl")).reason
    assert "is a directory" in only(problems_of(tmp_path)).reason


@settings(max_examples=200)
@given(st.lists(st.one_of(st.binary(max_size=40), st.text(max_size=40),
                          st.sampled_from([jsonl(HEADER).strip(), jsonl(SAY).strip(), '{"kind": "phase"}'])),
                max_size=6))
def test_any_input_gives_a_game_log_or_invalid_game_log(lines: list[str | bytes]) -> None:
    try:
        parse_game_log(lines, "fuzz", skip_invalid=True)
        parse_game_log(lines, "fuzz")
    except InvalidGameLog as e:
        assert e.problems and all(isinstance(p, LogProblem) for p in e.problems)


# --- the incremental validator -----------------------------------------------------------------------------------

def test_validator_feeds_events_one_at_a_time() -> None:
    validator = GameLogValidator(HEADER)
    first = validator.feed({"kind": "phase", "day": 1, "name": "social"})
    said = validator.feed(SAY)
    assert (first.line, first.phase, said.line, said.phase, said.day, said.phase_name, said.id) == \
        (2, 1, 3, 1, 1, "social", "3")
    with pytest.raises(InvalidGameLog) as info:
        validator.feed(SAY | {"speaker": "Bob", "text": " "})
    assert [(p.line, p.field) for p in info.value.problems] == [(4, "text")]
    assert len(validator.events) == 2  # unchanged after a rejected event
    again = validator.feed(SAY | {"speaker": "Sarah", "to": ["Marcus"]})
    assert again.line == 4
    log = validator.game_log()
    assert [e.line for e in log.events] == [2, 3, 4] and log.header.game == "g-001"


def test_validator_rejects_a_bad_header() -> None:
    with pytest.raises(InvalidGameLog) as info:
        GameLogValidator(HEADER | {"format": "other"}, source="engine")
    assert info.value.path == "engine" and info.value.problems[0].field == "format"


@pytest.mark.parametrize("event", [
    SAY | {"speaker": "Bob"}, SAY | {"text": ""}, {"kind": "accuse"}, {"kind": "phase", "day": -1, "name": "x"},
    SAY | {"id": "2"},
])
def test_validator_and_file_reader_apply_the_same_rules(write_log: Any, event: dict[str, Any]) -> None:
    file_problems = problems_of(write_log(SAY, event))
    validator = GameLogValidator(HEADER)
    validator.feed(SAY)
    with pytest.raises(InvalidGameLog) as info:
        validator.feed(event)
    assert info.value.problems == file_problems


def test_validator_line_numbers_must_increase() -> None:
    validator = GameLogValidator(HEADER)
    validator.feed(SAY, line=5)
    with pytest.raises(InvalidGameLog) as info:
        validator.feed(SAY | {"id": "x"}, line=5)
    assert "line numbers must increase" in info.value.problems[0].reason


def test_an_absurdly_long_number_is_a_problem_not_a_crash(write_log: Any) -> None:
    p = only(problems_of(write_log('{"kind": "phase", "day": ' + "9" * 5000 + ', "name": "x"}')))
    assert p.line == 2 and p.reason.startswith("invalid JSON")
