"""Beliefs (docs/log-format.md#beliefs, docs/perception.md#beliefs): a conclusion a player stated during the game,
about another player's role or side. The validation of the ``belief`` event (every bad field with its line and
reason; it is part of the game, so it never follows the end), what it becomes for its player (their own semantic,
inferred memory about the player named, perceived by nobody else), its line in the prompt block, and the
``annotations`` any event may carry, which no memory holds."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest

from graphmem.errors import InvalidGameLog
from graphmem.ingest.encode import EncodedGame, encode_game
from graphmem.logs import parse_game_log
from graphmem.model import default_parameters
from graphmem.model.details import Detail
from graphmem.model.vocabulary import DetailKind, Marker
from graphmem.recall.prompt import check_block, render_block
from tests.unit.recall.recall_helpers import memory, result

HEADER: dict[str, Any] = {
    "kind": "game", "format": "graphmem/1", "game": "belief-1",
    "players": [{"name": "player-1", "role": "loyal servant"}, {"name": "player-2", "role": "Merlin"},
                {"name": "player-3", "role": "Morgana"}, {"name": "player-4", "role": "assassin"}],
    "traitor_roles": ["Morgana", "assassin"], "side_names": {"traitor": "evil", "faithful": "good"},
}
MERLIN = {"kind": "belief", "player": "player-1", "about": "player-2", "belief": "Merlin"}
EVIL = {"kind": "belief", "player": "player-1", "about": "player-3", "belief": "evil",
        "text": "she pushed for the party that failed"}
END = {"kind": "end", "winner": "good side"}


def lines(*events: dict[str, Any]) -> list[str]:
    return [json.dumps(HEADER)] + [json.dumps(e) for e in events]


def encode(*events: dict[str, Any]) -> EncodedGame:
    return encode_game(parse_game_log(lines(*events), "test"), default_parameters())


def problems(*events: dict[str, Any]) -> list[str]:
    with pytest.raises(InvalidGameLog) as info:
        parse_game_log(lines(*events), "test")
    return [str(p) for p in info.value.problems]


# --- validation ---------------------------------------------------------------------------------------------------

def test_a_belief_is_checked_field_by_field_and_is_its_players_alone() -> None:
    assert problems(MERLIN | {"about": "player-1"}) == [
        "line 2: a belief of player-1 about player-1: a belief is about another player"]
    assert problems(MERLIN | {"witnesses": ["player-1", "player-2"]}) == [
        "line 2: a belief is perceived by its player alone (player-1), but witnesses or emotion also names player-2"]
    assert problems(MERLIN | {"emotion": {"player-3": {"fear": 0.5}}}) == [
        "line 2: a belief is perceived by its player alone (player-1), but witnesses or emotion also names player-3"]
    assert problems(MERLIN | {"about": ["player-2"]}) == [
        "line 2, field 'about': must be one player name (a string, e.g. \"Charlie\"), not a list: a belief is about "
        "one player (write one belief per player)"]
    assert problems(MERLIN | {"about": "player-9"}) == [
        "line 2, field 'about': unknown player 'player-9'; players: player-1, player-2, player-3, player-4"]
    assert problems({k: v for k, v in MERLIN.items() if k != "belief"}) == [
        "line 2, field 'belief': missing required field"]
    assert problems(EVIL | {"text": " \u200b "}) == [
        "line 2, field 'text': must contain a visible character (it is empty, or only whitespace or invisible "
        "characters such as U+200B)"]
    assert parse_game_log(lines(MERLIN | {"witnesses": ["player-1"]}), "test").events[-1].kind == "belief"


def test_a_belief_is_stated_during_the_game_never_after_its_end_nor_by_an_eliminated_player() -> None:
    assert problems(END, MERLIN) == [
        "line 3, field 'kind': the game ended at line 2 (winner 'good side'): no event may follow the end event but "
        "a reflection"]
    murder = {"kind": "murder", "victim": "player-1", "by": ["player-3"]}
    assert problems(murder, MERLIN) == [
        "line 3, field 'player': player-1 was murdered at line 2 (day 0, pregame): an eliminated player cannot hold "
        "a belief"]
    # being believed about after one's elimination is fine
    assert [e.kind for e in parse_game_log(lines({"kind": "murder", "victim": "player-2", "by": ["player-3"]}, MERLIN),
                                           "test").events] == ["murder", "belief"]


# --- what it becomes ----------------------------------------------------------------------------------------------

def test_a_belief_is_its_players_own_conclusion_about_the_player_named_and_nobody_elses() -> None:
    game = encode(MERLIN, EVIL, MERLIN | {"about": "player-4", "belief": "undecided"},
                  MERLIN | {"player": "player-3", "belief": "loyal servant"})
    beliefs = [m for m in game.memories if m.kind == "belief"]
    assert [(m.owner, m.text) for m in beliefs] == [
        ("player-1", "You concluded that player-2 is Merlin."),
        ("player-1", 'You concluded that player-3 is evil: "she pushed for the party that failed"'),
        ("player-1", "You were undecided about player-4."),
        ("player-3", "You concluded that player-2 is a loyal servant."),
    ]
    first = beliefs[0]
    assert (first.own, first.type, first.source_type, first.source_belief, first.teller, first.flashbulb) == (
        True, "semantic", "inferred", "inferred", None, False)
    assert first.about == ["player-2"] and "player-2" in first.keywords.split()
    assert json.loads(first.claims_json) == []
    # the information boundary: each belief is its player's alone
    events = [e for e in game.events if e.kind == "belief"]
    assert [(e.actor, e.witnesses, e.targets, e.belief) for e in events] == [
        ("player-1", ["player-1"], [], "Merlin"), ("player-1", ["player-1"], [], "evil"),
        ("player-1", ["player-1"], [], "undecided"), ("player-3", ["player-3"], [], "loyal servant")]
    assert events[0].text == "player-1 concluded that player-2 is Merlin."
    assert len(beliefs) == 4


def test_a_belief_in_the_sources_lower_case_words_names_the_role_as_the_game_does() -> None:
    # Avalon-NLU's drop-down words, kept as the source writes them (the analysis of issue 39 reads them)
    game = encode(*(MERLIN | {"about": about, "belief": word} for about, word in
                    [("player-2", "merlin"), ("player-3", "servant"), ("player-4", "assassin"),
                     ("player-3", "minion"), ("player-4", "evil")]))
    assert [e.belief for e in game.events] == ["merlin", "servant", "assassin", "minion", "evil"]
    assert [m.text for m in game.memories if m.kind == "belief"] == [
        "You concluded that player-2 is Merlin.", "You concluded that player-3 is a loyal servant.",
        "You concluded that player-4 is an assassin.", "You concluded that player-3 is minion.",
        "You concluded that player-4 is evil."]


def test_a_belief_reads_as_the_owners_own_worked_out_conclusion_in_the_prompt_block() -> None:
    template = "You concluded that {whom} is Merlin."
    what = "You concluded that player-5 is Merlin"
    details = (Detail(DetailKind.WHOM, "player-5"), Detail(DetailKind.WHEN, "3"), Detail(DetailKind.WHAT, what))
    clear = memory("g/memory/player-6/b1", Marker.CLEAR, template, details, day=3, kind="belief", own=True,
                   source="inferred", about=("player-5",))
    vague = memory("g/memory/player-6/b2", Marker.VAGUE, template, details, day=3, kind="belief", own=True,
                   source="inferred", about=("player-5",))
    block = render_block(result((clear, vague), player="player-6"))
    assert check_block(block) == []
    assert "1. [CLEAR] [Day 3] [You worked it out] You concluded that player-5 is Merlin." in block
    assert "2. [VAGUE] [Day 3] [You worked it out] You concluded that player-5 is Merlin... you think it involved " \
           "player-5." in block


# --- annotations ----------------------------------------------------------------------------------------------------

def test_annotations_are_stored_on_the_event_and_in_no_memory() -> None:
    said = {"kind": "say", "speaker": "player-3", "to": "all", "channel": "public",
            "text": "i agree with this party, i am good"}
    labelled = said | {"annotations": {"persuasion": "agreement", "deception": "omission"}}
    with_labels, without = encode(labelled, MERLIN), encode(said, MERLIN)
    assert [asdict(m) for m in with_labels.memories] == [asdict(m) for m in without.memories]
    assert with_labels.events[0].annotations_json == '{"deception": "omission", "persuasion": "agreement"}'
    assert without.events[0].annotations_json is None
    assert problems(said | {"annotations": {"persuasion": 3}}) == [
        "line 2, field 'annotations.persuasion': Input should be a valid string, got 3"]
