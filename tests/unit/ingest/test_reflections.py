"""Reflections (docs/log-format.md#reflections, docs/perception.md#reflections): a player's own conclusion after the
game, about another player or themselves. The validation of the ``reflect`` event (every bad field with its line and
reason, the rule that only reflections follow the end), what it becomes for its player (their own semantic memory
about the person observed, of modest salience, perceived by nobody else), and its line in the prompt block."""

from __future__ import annotations

import json
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
    "kind": "game", "format": "graphmem/1", "game": "reflect-1",
    "players": [{"name": "Alice", "role": "loyal servant"}, {"name": "Bob", "role": "Merlin"},
                {"name": "Charlie", "role": "minion"}],
    "traitor_roles": ["minion"], "side_names": {"traitor": "evil", "faithful": "good"},
}
ABOUT_CHARLIE = {"kind": "reflect", "player": "Alice", "about": "Charlie",
                 "text": "Charlie blended in well by anchoring early teams. Next time I watch him from the start."}
SELF = {"kind": "reflect", "player": "Bob", "text": "I hinted at the evil side too openly, and the assassin found me."}
END = {"kind": "end", "winner": "evil side"}


def lines(*events: dict[str, Any]) -> list[str]:
    return [json.dumps(HEADER)] + [json.dumps(e) for e in events]


def encode(*events: dict[str, Any]) -> EncodedGame:
    return encode_game(parse_game_log(lines(*events), "test"), default_parameters())


def problems(*events: dict[str, Any]) -> list[str]:
    with pytest.raises(InvalidGameLog) as info:
        parse_game_log(lines(*events), "test")
    return [str(p) for p in info.value.problems]


# --- validation ---------------------------------------------------------------------------------------------------

def test_only_reflections_follow_the_end_and_an_eliminated_player_reflects_after_it() -> None:
    murder = {"kind": "murder", "victim": "Bob", "by": ["Charlie"]}
    log = parse_game_log(lines(murder, END, ABOUT_CHARLIE, SELF), "test")
    assert [e.kind for e in log.events] == ["murder", "end", "reflect", "reflect"]  # Bob, murdered, reflects too
    ended = "the game ended at line 2 (winner 'evil side'): no event may follow the end event but a reflection"
    assert problems(END, ABOUT_CHARLIE, {"kind": "phase", "day": 2, "name": "night"},
                    {"kind": "observe", "observers": ["Alice"], "text": "Charlie grins."}) == [
        f"line 4, field 'kind': {ended}", f"line 5, field 'kind': {ended}"]
    # before the end a reflection is a conclusion drawn in the game, by a player still in it
    assert problems(murder, SELF) == [
        "line 3, field 'player': Bob was murdered at line 2 (day 0, pregame): an eliminated player cannot reflect "
        "before the game's end"]
    assert [e.kind for e in parse_game_log(lines(SELF, END), "test").events] == ["reflect", "end"]


def test_a_reflection_is_checked_field_by_field_like_every_other_event() -> None:
    assert problems(END, ABOUT_CHARLIE | {"about": "Alice"}) == [
        "line 3: a reflection of Alice about Alice is a self-assessment: leave out about"]
    assert problems(END, ABOUT_CHARLIE | {"witnesses": ["Alice", "Bob"]}) == [
        "line 3: a reflection is perceived by its player alone (Alice), but witnesses or emotion also "
        "names Bob"]
    assert problems(END, ABOUT_CHARLIE | {"emotion": {"Charlie": {"anger": 0.5}}}) == [
        "line 3: a reflection is perceived by its player alone (Alice), but witnesses or emotion also "
        "names Charlie"]
    assert problems(END, ABOUT_CHARLIE | {"about": "Zed"}) == [
        "line 3, field 'about': unknown player 'Zed'; players: Alice, Bob, Charlie"]
    assert problems(END, ABOUT_CHARLIE | {"about": ["Charlie"]}) == [
        "line 3, field 'about': must be one player name (a string, e.g. \"Charlie\"), not a list: a reflection is "
        "about one player (write one reflection per player)"]
    assert problems(END, ABOUT_CHARLIE | {"text": " \u200b "}) == [
        "line 3, field 'text': must contain a visible character (it is empty, or only whitespace or invisible "
        "characters such as U+200B)"]
    assert problems(END, {"kind": "reflect", "player": "Alice", "mood": "sad", "text": "Hm."}) == [
        "line 3, field 'mood': unknown field"]
    assert problems(END, {"kind": "reflect", "text": "Hm."}) == ["line 3, field 'player': missing required field"]
    # its own player as witness, or nobody, is allowed
    assert parse_game_log(lines(END, ABOUT_CHARLIE | {"witnesses": ["Alice"]}), "test").events[-1].kind == "reflect"


# --- what it becomes ----------------------------------------------------------------------------------------------

def test_a_reflection_is_its_players_own_conclusion_about_the_person_observed() -> None:
    speech = {"kind": "say", "speaker": "Bob", "to": "all", "channel": "public", "text": "Let us send Alice.",
              "claims": []}
    game = encode(speech, END, ABOUT_CHARLIE, SELF)
    [alice] = [m for m in game.memories if m.kind == "reflect" and m.owner == "Alice"]
    assert alice.text == ('You concluded about Charlie after the game: "Charlie blended in well by anchoring early '
                          'teams. Next time I watch him from the start."')
    assert (alice.own, alice.type, alice.source_type, alice.teller, alice.flashbulb) == (
        True, "semantic", "inferred", None, False)
    assert alice.about == ["Charlie"] and "Charlie" in alice.keywords.split()
    # modest: below a listener's memory of a public statement, as the owner's own statements are
    heard = next(m for m in game.memories if m.kind == "say" and m.owner == "Alice")
    said = next(m for m in game.memories if m.kind == "say" and m.owner == "Bob")
    assert alice.salience == pytest.approx(said.salience) and alice.salience < heard.salience
    [bob] = [m for m in game.memories if m.kind == "reflect" and m.owner == "Bob"]
    assert bob.text.startswith('You concluded about yourself after the game: "I hinted at the evil side')
    assert bob.about == [] and bob.own
    # the information boundary: each reflection is its player's alone
    reflections = [e for e in game.events if e.kind == "reflect"]
    assert [(e.actor, e.witnesses, e.targets) for e in reflections] == [("Alice", ["Alice"], []), ("Bob", ["Bob"], [])]
    assert {m.owner for m in game.memories if m.kind == "reflect"} == {"Alice", "Bob"}
    assert len([m for m in game.memories if m.kind == "reflect"]) == 2
    # a conclusion drawn during the game says so without "after the game"
    during = encode(ABOUT_CHARLIE)
    assert during.memories[0].text.startswith('You concluded about Charlie: "Charlie blended')


def test_a_reflection_reads_in_the_players_words_in_the_prompt_block() -> None:
    details = (Detail(DetailKind.WHOM, "Charlie"), Detail(DetailKind.WHEN, "5"),
               Detail(DetailKind.QUOTE, "Charlie blended in well by anchoring early teams."),
               Detail(DetailKind.WHAT, "Charlie blended in well by anchoring early teams."))
    template = "You concluded about {whom} after the game: {content}"
    clear = memory("g1/memory/Alice/r1", Marker.CLEAR, template, details, day=5, kind="reflect", own=True,
                   source="inferred", series_game=1, about=("Charlie",))
    vague = memory("g1/memory/Alice/r2", Marker.VAGUE, template, details, day=5, kind="reflect", own=True,
                   source="inferred", series_game=1, about=("Charlie",))
    block = render_block(result((clear, vague), player="Alice"))
    assert check_block(block) == []
    assert ('1. [CLEAR] [Game 1, Day 5] You concluded about Charlie after the game: "Charlie blended in well by '
            'anchoring early teams."') in block
    assert ('2. [VAGUE] [Game 1, Day 5] You concluded something about "Charlie blended in well by anchoring"... '
            "you think it involved Charlie.") in block
