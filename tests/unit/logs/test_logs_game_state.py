"""The game's state in validation: eliminated players, roles made known, the end; player names in NFC; the messages
of the fields a hand-written log gets wrong first (murder/recruit ``by``, banish ``votes``, names and ids)."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.errors import InvalidGameLog
from graphmem.logs import (
    EVENT_KINDS,
    GameLogValidator,
    MurderEvent,
    SayEvent,
    game_log_lines,
    parse_game_log,
    read_game_log,
)

CHLOE = "Chlo\u00e9"  # NFC
CHLOE_NFD = "Chloe\u0301"
assert unicodedata.normalize("NFC", CHLOE_NFD) == CHLOE != CHLOE_NFD

HEADER: dict[str, Any] = {
    "kind": "game", "format": "graphmem/1", "game": "state-1",
    "players": [{"name": "Marcus", "role": "faithful"}, {"name": "Sarah", "role": "traitor"},
                {"name": "Eleanor", "role": "faithful"}, {"name": "Dmitri", "role": "faithful"},
                {"name": CHLOE, "role": "faithful"}],
}


def say(speaker: str, text: str = "Hello.", **more: Any) -> dict[str, Any]:
    return {"kind": "say", "speaker": speaker, "to": "all", "channel": "roundtable", "text": text} | more


def lines(*events: dict[str, Any], header: dict[str, Any] = HEADER) -> list[str]:
    return [json.dumps(header, ensure_ascii=False)] + [json.dumps(e, ensure_ascii=False) for e in events]


def problems(*events: dict[str, Any], header: dict[str, Any] = HEADER) -> list[str]:
    with pytest.raises(InvalidGameLog) as info:
        parse_game_log(lines(*events, header=header))
    return [str(p) for p in info.value.problems]


# One game that breaks every state rule; line numbers are those of the file (header = line 1).
STORY: list[dict[str, Any]] = [
    {"kind": "phase", "day": 1, "name": "night"},                                                  # 2
    {"kind": "murder", "victim": "Dmitri", "by": ["Sarah"]},                                       # 3
    {"kind": "phase", "day": 2, "name": "roundtable"},                                             # 4
    say("Dmitri"),                                                                                 # 5
    {"kind": "vote", "voter": "Dmitri", "target": "Sarah", "ballot": "banish"},                    # 6
    {"kind": "say", "speaker": "Marcus", "to": ["Dmitri"], "channel": "private", "text": "Psst."},  # 7
    say("Marcus", witnesses=["Marcus", "Dmitri"]),                                                 # 8
    {"kind": "banish", "player": "Eleanor", "votes": 3, "role_revealed": "faithful"},              # 9
    {"kind": "banish", "player": "Eleanor", "votes": 1},                                           # 10
    {"kind": "recruit", "player": "Eleanor", "by": "Sarah"},                                       # 11
    {"kind": "murder", "victim": "Eleanor", "by": ["Sarah"]},                                      # 12
    {"kind": "reveal", "player": "Dmitri", "role": "faithful"},                                    # 13
    {"kind": "observe", "observers": ["Marcus"], "text": "Dmitri's chair is empty.", "about": ["Dmitri"]},  # 14
    say("Marcus", "Dmitri was no traitor.", about=["Dmitri"],
        claims=[{"subject": "Dmitri", "predicate": "role", "object": "traitor", "polarity": False}]),  # 15
    {"kind": "thought", "player": "Dmitri", "text": "Who did it?", "priority": 0.5, "persistence": 1},  # 16
    {"kind": "end", "winner": "traitors", "witnesses": ["Marcus", "Sarah", "Dmitri", "Eleanor"]},  # 17
    say("Marcus", "Well played."),                                                                 # 18
    {"kind": "phase", "day": 3, "name": "breakfast"},                                              # 19
]


def test_every_state_problem_is_reported_with_line_field_and_where_the_player_left() -> None:
    murdered = "Dmitri was murdered at line 3 (day 1, night): an eliminated player cannot"
    banished = "Eleanor was banished at line 9 (day 2, roundtable): an eliminated player cannot"
    ended = "the game ended at line 17 (winner 'traitors'): no event may follow the end event but a reflection"
    assert problems(*STORY) == [
        f"line 5, field 'speaker': {murdered} speak",
        f"line 6, field 'voter': {murdered} vote",
        f"line 7, field 'to[0]': {murdered} be spoken to",
        f"line 8, field 'witnesses[1]': {murdered} witness anything",
        f"line 10, field 'player': {banished} be banished",
        f"line 11, field 'player': {banished} be recruited",
        f"line 12, field 'victim': {banished} be murdered",
        f"line 16, field 'player': {murdered} have thoughts",
        f"line 18, field 'kind': {ended}",
        f"line 19, field 'kind': {ended}",
    ]


def test_state_problems_are_reported_together_with_the_other_problems() -> None:
    found = problems(STORY[0], STORY[1], say("Dmitri", "\u200b"), say("Dmitri", witnesses=["Bob"]))
    assert found == [
        "line 4, field 'text': must contain a visible character (it is empty, or only whitespace or invisible "
        "characters such as U+200B)",
        "line 5, field 'witnesses[0]': unknown player 'Bob'; players: Marcus, Sarah, Eleanor, Dmitri, Chlo\u00e9",
        "line 5, field 'speaker': Dmitri was murdered at line 3 (day 1, night): an eliminated player cannot speak",
    ]


def test_skip_invalid_keeps_the_valid_events() -> None:
    log = parse_game_log(lines(*STORY), skip_invalid=True)
    assert [e.line for e in log.events] == [2, 3, 4, 9, 13, 14, 15, 17]
    assert [p.line for p in log.rejected] == [5, 6, 7, 8, 10, 11, 12, 16, 18, 19]


def test_convert_cli_refuses_then_skips_the_dead_players_events(tmp_path: Path) -> None:
    src, out = tmp_path / "game.jsonl", tmp_path / "out.jsonl"
    src.write_text("\n".join(lines(*STORY)) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["convert", str(src), "-o", str(out)])
    assert result.exit_code == 1 and not out.exists()
    assert (f"{src}: line 5, field 'speaker': Dmitri was murdered at line 3 (day 1, night): an eliminated player "
            "cannot speak") in result.stderr
    result = CliRunner().invoke(main, ["convert", str(src), "-o", str(out), "--skip-invalid"])
    assert result.exit_code == 0 and result.stderr.count("skipped:") == 10
    assert [e.kind for e in read_game_log(out).events] == ["phase", "murder", "phase", "banish", "reveal",
                                                           "observe", "say", "end"]


def test_legitimate_after_an_elimination() -> None:
    """Talking, thinking and observing about the dead, revealing their role, and the end's witnesses."""
    log = parse_game_log(lines(*(STORY[line - 2] for line in (2, 3, 4, 9, 13, 14, 15, 17))))
    assert [e.kind for e in log.events] == ["phase", "murder", "phase", "banish", "reveal", "observe", "say", "end"]


def test_a_player_witnesses_their_own_elimination() -> None:
    log = parse_game_log(lines({"kind": "murder", "victim": "Dmitri", "witnesses": ["Sarah", "Dmitri"]},
                               {"kind": "banish", "player": "Sarah", "witnesses": ["Marcus", "Sarah"]}))
    assert len(log.events) == 2


def test_an_eliminated_murderer_recruiter_or_observer() -> None:
    found = problems({"kind": "banish", "player": "Sarah"},
                     {"kind": "murder", "victim": "Marcus", "by": ["Sarah"]},
                     {"kind": "recruit", "player": "Marcus", "by": "Sarah"},
                     {"kind": "observe", "observers": ["Sarah"], "text": "x"},
                     {"kind": "emotion", "player": "Sarah", "state": {"fear": 0.5}},
                     say("Marcus", emotion={"Sarah": {"fear": 0.5}}))
    gone = "Sarah was banished at line 2 (day 0, pregame): an eliminated player cannot"
    assert found == [f"line 3, field 'by[0]': {gone} murder anyone", f"line 4, field 'by': {gone} recruit anyone",
                     f"line 5, field 'observers[0]': {gone} observe anything",
                     f"line 6, field 'player': {gone} have an emotion state",
                     f"line 7, field 'emotion.Sarah': {gone} perceive anything"]


def test_a_rejected_event_does_not_change_the_state() -> None:
    log = parse_game_log(lines({"kind": "murder", "victim": "Dmitri", "by": ["Bob"]}, say("Dmitri")),
                         skip_invalid=True)
    assert [e.line for e in log.events] == [3] and [p.line for p in log.rejected] == [2]


def test_the_validator_of_a_live_game_applies_the_same_rules() -> None:
    validator = GameLogValidator(HEADER)
    validator.feed({"kind": "murder", "victim": "Dmitri", "by": ["Sarah"]})
    with pytest.raises(InvalidGameLog) as info:
        validator.feed(say("Dmitri"))
    assert [str(p) for p in info.value.problems] == [
        "line 3, field 'speaker': Dmitri was murdered at line 2 (day 0, pregame): an eliminated player cannot speak"]


# --- roles made known ----------------------------------------------------------------------------------------------

def test_a_recruited_faithful_is_revealed_as_a_traitor() -> None:
    log = parse_game_log(lines({"kind": "recruit", "player": "Marcus", "by": "Sarah"},
                               {"kind": "banish", "player": "Marcus", "votes": 4, "role_revealed": "traitor"},
                               {"kind": "reveal", "player": "Marcus", "role": "traitor"}))
    assert len(log.events) == 3


def test_a_werewolf_recruit_is_revealed_as_a_werewolf() -> None:
    wolves = {**HEADER, "players": [{"name": "Ana", "role": "werewolf"}, {"name": "Bruno", "role": "villager"},
                                    {"name": "Eve", "role": "seer"}], "traitor_roles": ["werewolf"]}
    log = parse_game_log(lines({"kind": "recruit", "player": "Bruno", "by": "Ana"},
                               {"kind": "banish", "player": "Bruno", "role_revealed": "werewolf"}, header=wolves))
    assert len(log.events) == 2
    assert problems({"kind": "recruit", "player": "Bruno", "by": "Ana"},
                    {"kind": "banish", "player": "Bruno", "role_revealed": "traitor"}, header=wolves) == [
        "line 3, field 'role_revealed': reveals Bruno as 'traitor', but Bruno's role is 'werewolf' (recruited at "
        "line 2)"]


def test_a_revealed_role_that_is_not_the_players_role() -> None:
    assert problems({"kind": "banish", "player": "Eleanor", "role_revealed": "traitor"},
                    {"kind": "recruit", "player": "Marcus", "by": "Sarah"},
                    {"kind": "reveal", "player": "Marcus", "role": "faithful"},
                    {"kind": "reveal", "player": "Sarah", "role": "Traitor"}) == [
        "line 2, field 'role_revealed': reveals Eleanor as 'traitor', but Eleanor's role is 'faithful' (in the header)",
        "line 4, field 'role': reveals Marcus as 'faithful', but Marcus's role is 'traitor' (recruited at line 3)",
        "line 5, field 'role': reveals Sarah as 'Traitor', but Sarah's role is 'traitor' (in the header) (roles are "
        "case-sensitive)",
    ]


# --- Unicode: player names in NFC ----------------------------------------------------------------------------------

def test_a_decomposed_name_is_the_same_player_as_the_precomposed_one() -> None:
    log = parse_game_log(lines(say(CHLOE_NFD, about=["Marcus"], witnesses=[CHLOE_NFD, "Marcus"],
                                   emotion={CHLOE_NFD: {"fear": 0.2}},
                                   claims=[{"subject": CHLOE_NFD, "predicate": "voted_for", "object": CHLOE_NFD}])))
    event = log.events[0].event
    assert isinstance(event, SayEvent)
    assert event.speaker == CHLOE and event.witnesses == (CHLOE, "Marcus") and list(event.emotion or {}) == [CHLOE]
    assert (event.claims[0].subject, event.claims[0].object) == (CHLOE, CHLOE)
    assert CHLOE_NFD not in "".join(game_log_lines(log))  # written back in NFC


def test_a_decomposed_header_name_is_stored_in_nfc() -> None:
    header = HEADER | {"players": [{"name": CHLOE_NFD, "role": "faithful"}, {"name": "Sarah", "role": "traitor"}]}
    log = parse_game_log(lines(say(CHLOE), header=header))
    assert log.header.player_names == (CHLOE, "Sarah") and log.events[0].event.speaker == CHLOE  # type: ignore[union-attr]


def test_two_header_names_that_differ_only_in_normal_form_are_one_name() -> None:
    header = HEADER | {"players": [{"name": CHLOE, "role": "faithful"}, {"name": CHLOE_NFD, "role": "traitor"}]}
    assert problems(header=header) == [
        f"line 1, field 'players': duplicate player name {CHLOE!r} (names must differ ignoring case: {CHLOE!r})"]


# --- messages of the fields a hand-written log gets wrong first ------------------------------------------------------

def test_a_murderer_given_as_one_name_reads_as_the_list_of_that_name() -> None:
    one = parse_game_log(lines({"kind": "murder", "victim": "Marcus", "by": "Sarah"})).events[0].event
    listed = parse_game_log(lines({"kind": "murder", "victim": "Marcus", "by": ["Sarah"]})).events[0].event
    assert isinstance(one, MurderEvent) and one.by == ("Sarah",) and one == listed
    assert problems({"kind": "murder", "victim": "Marcus", "by": 7}) == [
        'line 2, field \'by\': must be a player name or a list of player names (e.g. "Sarah" or ["Sarah", "Thomas"]), '
        "got 7"]
    assert problems({"kind": "murder", "victim": "Marcus", "by": "Nobody"}) == [
        f"line 2, field 'by[0]': unknown player 'Nobody'; players: Marcus, Sarah, Eleanor, Dmitri, {CHLOE}"]


@pytest.mark.parametrize(("event", "message"), [
    ({"kind": "recruit", "player": "Marcus", "by": ["Sarah"]},
     "line 2, field 'by': must be one player name (a string, e.g. \"Sarah\"), not a list: a recruitment has one "
     "recruiter"),
    ({"kind": "banish", "player": "Marcus", "votes": ["Sarah", "Eleanor", "Dmitri"]},
     "line 2, field 'votes': must be an integer, the number of votes against the banished player (e.g. 5), got a "
     "list; each player's vote is a vote event of its own"),
    ({"kind": "banish", "player": "Marcus", "votes": {"Sarah": 1}},
     "line 2, field 'votes': must be an integer, the number of votes against the banished player (e.g. 5), got an "
     "object; each player's vote is a vote event of its own"),
    ({"kind": "banish", "player": "Marcus", "votes": "3"},
     "line 2, field 'votes': must be an integer, the number of votes against the banished player (e.g. 5), got "
     "\"3\"; each player's vote is a vote event of its own"),
    ({"kind": "banish", "player": "Marcus", "votes": True},
     "line 2, field 'votes': must be an integer, the number of votes against the banished player (e.g. 5), got "
     "true; each player's vote is a vote event of its own"),
])
def test_messages_say_what_is_expected(event: dict[str, Any], message: str) -> None:
    assert problems(event) == [message]


@pytest.mark.parametrize("name", ["Sa/rah", " Sarah", "Sarah ", ""])
def test_a_bad_player_name_is_explained_in_words(name: str) -> None:
    header = HEADER | {"players": [{"name": name, "role": "traitor"}]}
    assert problems(header=header) == [
        "line 1, field 'players[0].name': a player name must not be empty, contain '/' or start or end with a space "
        f"(names become part of node ids), got {name!r}"]


@pytest.mark.parametrize(("name", "where", "char"), [
    ("A\u200b", "end", "U+200B ZERO WIDTH SPACE"), ("\u202eevil", "start", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("\u200b", "start", "U+200B ZERO WIDTH SPACE"), ("Ann\u3164", "end", "U+3164 HANGUL FILLER")])
def test_a_player_name_with_an_invisible_end_is_refused(name: str, where: str, char: str) -> None:
    # "A\u200b" was stored beside "A" and listed as "players: A​, ..." when --player A was not found
    header = HEADER | {"players": [{"name": name, "role": "traitor"}]}
    assert problems(header=header) == [
        f"line 1, field 'players[0].name': a player name must not {where} with an invisible character ({char}: the "
        f"name would look like another), got {name!r}"]


def test_a_player_name_may_end_with_a_combining_mark() -> None:
    log = parse_game_log(lines(header=HEADER | {"players": [{"name": "q\u0307", "role": "traitor"}]}))
    assert [p.name for p in log.header.players] == ["q\u0307"]


def test_a_bad_game_id_is_explained_in_words() -> None:
    assert problems(header=HEADER | {"game": "-g/1"}) == [
        "line 1, field 'game': a game id may only contain letters, digits and the characters . _ : - and must start "
        "with a letter or digit, got '-g/1'"]


def test_a_bad_series_name_is_explained_as_a_series_name() -> None:
    assert problems(header=HEADER | {"series": {"name": "ünïcode-series"}}) == [
        "line 1, field 'series.name': a series name may only contain ASCII letters, digits and the characters "
        ". _ : - and must start with an ASCII letter or digit, got 'ünïcode-series'"]


def test_the_format_documentation_has_every_event_kind_and_the_messages_it_quotes() -> None:
    doc = (Path(__file__).resolve().parents[3] / "docs" / "log-format.md").read_text(encoding="utf-8")
    assert all(f"\n| `{kind}` |" in doc for kind in EVENT_KINDS)
    assert "the game ended at line 17 (winner 'traitors'): no event\n  may follow the end event but a reflection" in doc
    assert "`pregame`, day 0" in doc and '"by": ["Sarah"]' in doc and '"by": "Sarah"' in doc and '"votes": 5' in doc


def test_a_forked_state_keeps_the_ballot_rounds_and_the_mission_ballots_apart_from_the_original() -> None:
    """A live game validates each batch on a fork of the state: the banish ballots of earlier batches (which give a
    later statement's vote claim its round) and an open proposal must survive the fork, and the fork's own votes must
    not leak back into the state a refused batch leaves behind."""
    from graphmem.logs.state import GameState

    state = GameState({"Ann": "traitor", "Ben": "faithful", "Cy": "faithful"})
    state.ballots.vote(1, "Ann", "Ben")
    state.ballots.banished(1)
    state.proposal = ("Ann", ("Ann", "Ben"))
    state.ballot_voters["team"] = ["Ben"]
    fork = state.copy()
    fork.ballots.vote(2, "Ben", "Cy")
    fork.ballot_voters["team"].append("Cy")
    assert fork.ballots.at(2).votes == {1: {"Ann": "Ben"}, 2: {"Ben": "Cy"}}
    assert fork.proposal == ("Ann", ("Ann", "Ben"))
    assert state.ballots.at(2).votes == {1: {"Ann": "Ben"}}
    assert state.ballot_voters == {"team": ["Ben"]}
