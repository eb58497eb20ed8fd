"""How an event is worded in its owner's memory (graphmem/ingest/texts.py) and how lost details read
(docs/model.md#details-and-how-they-render)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from graphmem.ingest.texts import wording
from graphmem.logs.schema import SayEvent
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
