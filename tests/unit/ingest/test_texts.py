"""How an event is worded in its owner's memory (graphmem/ingest/texts.py) and how lost details read
(docs/model.md#details-and-how-they-render)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from graphmem.ingest.texts import owner_as_you, wording
from graphmem.logs.schema import OutcomeEvent, SayEvent
from graphmem.model.details import render


@pytest.mark.parametrize(("channel", "place"), [("roundtable", "at the round table"),
                                                ("public", "in front of everyone"),
                                                ("traitors", "at the traitors' meeting")])
def test_a_lost_where_of_your_own_words_reads_somewhere(channel: str, place: str) -> None:
    event = SayEvent.model_validate({"kind": "say", "speaker": "Ava", "to": "all", "channel": channel,
                                    "text": "Dan is hiding something."})
    said = wording(event, "Ava", 2)
    assert render(said.template, said.details) == f'You said {place}: "Dan is hiding something."'
    lost = [replace(d, lost=True) if d.kind == "where" else d for d in said.details]
    assert render(said.template, lost) == 'You said somewhere: "Dan is hiding something."'


@pytest.mark.parametrize(("killers", "place"), [("traitors", "at the traitors' meeting"),
                                                ("mafia", "at the mafia side's meeting"),
                                                ("evil", "at the evil side's meeting")])
def test_the_hidden_sides_meeting_is_named_in_the_games_own_words(killers: str, place: str) -> None:
    """A Mafia player's night chat is not a "traitors' meeting" (found by a new user on llmafia-0001)."""
    event = SayEvent.model_validate({"kind": "say", "speaker": "Ava", "to": "all", "channel": "traitors",
                                    "text": "Let's take Dan tonight."})
    said = wording(event, "Ava", 2, killers=killers)
    assert render(said.template, said.details) == f"You said {place}: \"Let's take Dan tonight.\""


def test_an_outcome_names_its_owner_you_where_the_game_names_them() -> None:
    """A party list in an outcome read "player-1" where player-1 remembers it (the recall block of a fresh user);
    every other memory of theirs says "you". The game's words stay the Event's own (owner None)."""
    rejected = OutcomeEvent(kind="outcome", what="player-5's party (player-5, player-6, player-1, player-10) was "
                            "rejected, 3 votes to 3.", result="rejected", ballot="team",
                            about=("player-5", "player-6", "player-1", "player-10"))
    text = {owner: wording(rejected, owner, 2).text for owner in (None, "player-1", "player-5", "player-2")}
    assert text[None] == rejected.what
    assert text["player-1"] == "player-5's party (player-5, player-6, you, player-10) was rejected, 3 votes to 3."
    assert text["player-5"] == "Your party (you, player-6, player-1, player-10) was rejected, 3 votes to 3."
    assert text["player-2"] == rejected.what
    assert owner_as_you("Quest 2 (Ann, Anna) failed.", "Ann") == "Quest 2 (you, Anna) failed."
