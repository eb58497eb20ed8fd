"""Perception and encoding (docs/perception.md#who-remembers-what, docs/model.md) on hand-written logs: who remembers what,
and how."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from graphmem.ingest.encode import EncodedGame, check_profiles, encode_game
from graphmem.logs import parse_game_log
from graphmem.model import default_parameters

ROOT = Path(__file__).resolve().parents[3]
HEADER = {"kind": "game", "format": "graphmem/1", "game": "g", "players": [
    {"name": "Ann", "role": "faithful"}, {"name": "Bob", "role": "faithful"}, {"name": "Cid", "role": "traitor"},
    {"name": "Dee", "role": "traitor"}, {"name": "Eve", "role": "faithful"}]}


def encode(*events: dict[str, object], header: dict[str, object] | None = None) -> EncodedGame:
    lines = [json.dumps(header or HEADER)] + [json.dumps(e) for e in events]
    return encode_game(parse_game_log(lines, "test"), default_parameters())


def owners(game: EncodedGame, event_id: str) -> dict[str, str]:
    return {m.owner: m.source_type for m in game.memories if m.event == event_id and m.kind != "lesson"}


def test_private_statement_is_remembered_by_speaker_and_addressee_only() -> None:
    game = encode({"kind": "say", "id": "s", "speaker": "Ann", "to": ["Bob"], "channel": "private",
                   "text": "Cid is a traitor."})
    assert owners(game, "s") == {"Ann": "first_hand", "Bob": "direct_told"}
    told = [(t.teller_uid, t.listener_uid) for t in game.told]
    assert told == [("g/player/Ann", "g/player/Bob")]


def test_explicit_witness_of_a_private_statement_overheard_it_and_was_not_told() -> None:
    game = encode({"kind": "say", "id": "s", "speaker": "Ann", "to": ["Bob"], "channel": "private",
                   "text": "Cid is a traitor.", "witnesses": ["Ann", "Bob", "Eve"]})
    assert owners(game, "s") == {"Ann": "first_hand", "Bob": "direct_told", "Eve": "overheard"}
    assert all(t.listener_uid != "g/player/Eve" for t in game.told)
    eve = next(m for m in game.memories if m.owner == "Eve")
    assert (eve.teller, eve.believed_teller) == ("Ann", "Ann") and eve.c0 == pytest.approx(0.7)


def test_traitors_channel_reaches_living_traitors_only() -> None:
    game = encode({"kind": "say", "id": "t", "speaker": "Cid", "to": "all", "channel": "traitors",
                   "text": "Ann goes tonight."})
    assert owners(game, "t") == {"Cid": "first_hand", "Dee": "group_discuss"}


def test_round_table_reaches_only_living_players() -> None:
    game = encode({"kind": "phase", "day": 1, "name": "night"},
                  {"kind": "murder", "id": "m", "victim": "Eve"},
                  {"kind": "phase", "day": 2, "name": "roundtable"},
                  {"kind": "say", "id": "r", "speaker": "Ann", "to": "all", "channel": "roundtable",
                   "text": "We lost Eve."})
    assert set(owners(game, "m")) == {"Ann", "Bob", "Cid", "Dee"}
    assert owners(game, "r") == {"Ann": "first_hand", "Bob": "group_discuss", "Cid": "group_discuss",
                                 "Dee": "group_discuss"}
    assert next(p for p in game.players if p.name == "Eve").status == "murdered"


def test_murder_murder_is_a_flashbulb_for_faithfuls_but_not_for_the_traitors_who_chose_it() -> None:
    game = encode({"kind": "murder", "id": "m", "victim": "Eve", "by": ["Cid", "Dee"]})
    flash = {m.owner: m.flashbulb for m in game.memories}
    assert flash == {"Ann": True, "Bob": True, "Cid": False, "Dee": False}
    ann = next(m for m in game.memories if m.owner == "Ann")
    assert ann.e0 == 1.0 and ann.floor == 0.8 and ann.decay_rate == 0.05
    assert json.loads(ann.emotion_json) == {"fear": 0.6}
    pushed = {t.player for t in game.thoughts if t.trigger == "flashbulb"}
    assert pushed == {"Ann", "Bob"}


def test_accusation_raises_salience_and_pushes_working_memory() -> None:
    game = encode({"kind": "vote", "id": "v1", "voter": "Ann", "target": "Bob", "ballot": "banish"},
                  {"kind": "vote", "id": "v2", "voter": "Ann", "target": "Cid", "ballot": "banish"})
    bob_accused = next(m for m in game.memories if m.owner == "Bob" and m.event == "v1")
    bob_watching = next(m for m in game.memories if m.owner == "Bob" and m.event == "v2")
    assert bob_accused.salience > bob_watching.salience
    assert bob_accused.text == "Ann voted to banish you"
    assert bob_watching.text == "Ann voted to banish Cid"
    assert any(t.player == "Bob" and t.trigger in ("accusation", "flashbulb") and t.priority == 0.9
               and t.persistence == 2 for t in game.thoughts)


def test_voting_out_a_faithful_teaches_each_voter_a_lesson() -> None:
    game = encode({"kind": "vote", "id": "v1", "voter": "Ann", "target": "Eve", "ballot": "banish"},
                  {"kind": "vote", "id": "v2", "voter": "Cid", "target": "Eve", "ballot": "banish"},
                  {"kind": "vote", "id": "v3", "voter": "Eve", "target": "Cid", "ballot": "banish"},
                  {"kind": "banish", "id": "b", "player": "Eve", "votes": 2, "role_revealed": "faithful"})
    lessons = {m.owner: m for m in game.memories if m.kind == "lesson"}
    assert set(lessons) == {"Ann", "Cid"}
    assert lessons["Ann"].text == "Voting out Eve was a mistake."
    assert lessons["Ann"].type == "procedural" and lessons["Ann"].source_type == "inferred"
    regret = next(m for m in game.memories if m.owner == "Ann" and m.event == "b" and m.kind == "banish")
    bystander = next(m for m in game.memories if m.owner == "Bob" and m.event == "b")
    assert json.loads(regret.emotion_json).get("fear") == 0.5 and bystander.emotion_json == "{}"


def test_given_emotion_wins_over_appraisal_and_emotion_state_adds_to_it() -> None:
    game = encode({"kind": "emotion", "player": "Bob", "state": {"anger": 0.9}},
                  {"kind": "say", "id": "s", "speaker": "Ann", "to": ["Bob"], "channel": "private",
                   "text": "Hello.", "emotion": {"Ann": {"joy": 0.2}}})
    by_owner = {m.owner: json.loads(m.emotion_json) for m in game.memories}
    assert by_owner["Ann"] == {"joy": 0.2}
    assert by_owner["Bob"] == {"anger": 0.9, "trust": 0.3}


def test_statement_heard_reads_as_its_content_and_the_speaker_remembers_saying_it() -> None:
    game = encode({"kind": "say", "id": "s", "speaker": "Ann", "to": ["Bob"], "channel": "private",
                   "text": " Cid   is a\u2028traitor.\n"})
    texts = {m.owner: m.text for m in game.memories}
    # the words as said, spaces and line breaks included (the prompt shows them on one line); only the ends go
    assert texts == {"Ann": 'You told Bob: "Cid   is a\u2028traitor."', "Bob": '"Cid   is a\u2028traitor."'}
    bob = next(m for m in game.memories if m.owner == "Bob")
    assert bob.about == ["Cid"] and "Ann" in bob.keywords.split() and "Cid" in bob.keywords.split()


def test_the_same_log_always_encodes_to_the_same_rows() -> None:
    text = (ROOT / "examples" / "small-game.jsonl").read_text(encoding="utf-8").splitlines()
    first = encode_game(parse_game_log(text, "a"), default_parameters())
    second = encode_game(parse_game_log(text, "a"), default_parameters())
    assert [m.row() for m in first.memories] == [m.row() for m in second.memories]
    assert Counter(m.source_type for m in first.memories)["overheard"] == 1


def test_unknown_profile_is_reported_on_the_header_line() -> None:
    header = dict(HEADER, players=[{"name": "Ann", "role": "faithful", "profile": "nosuch"}])
    log = parse_game_log([json.dumps(header)], "test")
    problems = check_profiles(log, default_parameters())
    assert [(p.line, p.field) for p in problems] == [(1, "players[0].profile")]
    assert "known: analytical" in problems[0].reason
