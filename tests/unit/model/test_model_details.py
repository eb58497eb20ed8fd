"""Structured details: rendering of lost and fabricated details, and the JSON stored in the graph
(docs/model.md#details-and-how-they-render)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import GraphmemError, UsageProblem
from graphmem.model.details import (
    Detail,
    DetailKind,
    any_fabricated,
    believed_about,
    cannot_remember_who,
    day_label_kept,
    details_from_json,
    details_to_json,
    displayed_day,
    n_lost,
    render,
    search_keywords,
)

TEMPLATE = "{who} told {whom} in the {where}: {content}"
FULL = (Detail("who", "Eleanor"), Detail("whom", "you"), Detail("where", "library"), Detail("when", "2"),
        Detail("quote", "Marcus has medical training"), Detail("what", "Marcus has medical training, she said"))


def lose(details: tuple[Detail, ...], kind: str) -> tuple[Detail, ...]:
    return tuple(d.forgotten() if d.kind == kind else d for d in details)


def test_render_with_every_detail_kept() -> None:
    assert render(TEMPLATE, FULL) == 'Eleanor told you in the library: "Marcus has medical training"'


def test_lost_details_render_vaguely() -> None:
    assert render(TEMPLATE, lose(FULL, "who")).startswith("someone told you")
    assert "in the somewhere" in render(TEMPLATE, lose(FULL, "where"))
    assert render(TEMPLATE, lose(FULL, "quote")).endswith(": Marcus has medical training, she said")
    assert render("{who} accused {whom}", (Detail("who", "Thomas"), Detail("whom", "you", lost=True))) == \
        "Thomas accused someone"


def test_fabricated_details_render_as_if_true() -> None:
    planted = tuple(Detail("who", "Ben", fabricated=True, original="Eleanor", origin="g/memory/x/7")
                    if d.kind == "who" else d for d in FULL)
    assert render(TEMPLATE, planted).startswith("Ben told you")


def test_the_players_a_memory_is_about_follow_what_the_owner_believes() -> None:
    # "Riley voted to banish you": about Riley; once the voter is swapped for Fletcher at a recall, about Fletcher
    # (the agent's JSON, the VAGUE line's "you think it involved ..." and the search keywords never name Riley again)
    vote = (Detail("who", "Riley"), Detail("whom", "you"))
    assert believed_about(vote, ["Riley"]) == ("Riley",)
    swapped = (Detail("who", "Fletcher", fabricated=True, original="Riley", origin="g/memory/p/3"), vote[1])
    assert believed_about(swapped, ["Riley", "Taylor"]) == ("Fletcher", "Taylor")
    assert "Riley" not in search_keywords(swapped, ["Riley"]).split()
    assert "Fletcher" in search_keywords(swapped, ["Riley"]).split()
    # a lost voter: the owner cannot remember who, so neither name is there
    forgotten = (Detail("who", "Riley", lost=True), vote[1])
    assert believed_about(forgotten, ["Riley", "Taylor"]) == ("Taylor",)
    assert believed_about((swapped[0].forgotten(), vote[1]), ["Riley"]) == ()
    # a name still held by another kept detail stays; a name imported without replacing one is added
    assert believed_about((Detail("who", "Riley", lost=True), Detail("whom", "Riley")), ["Riley"]) == ("Riley",)
    added = (*vote, Detail("whom", "Casey", fabricated=True, origin="g/memory/p/4"))
    assert believed_about(added, ["Riley"]) == ("Riley", "Casey")
    assert believed_about(FULL, ["Eleanor", "Marcus"]) == ("Eleanor", "Marcus")


def test_several_details_of_one_kind_and_literal_braces() -> None:
    details = (Detail("who", "Anna"), Detail("whom", "Ben"), Detail("whom", "Cleo"), Detail("whom", "Dev", lost=True))
    assert render("{who} voted with {whom} {not a placeholder}", details) == \
        "Anna voted with Ben, Cleo and someone {not a placeholder}"
    assert render("{who} spoke", ()) == "someone spoke"
    assert render("{content}", ()) == "something"


def test_day_marker_and_who_clause() -> None:
    assert day_label_kept(FULL) and not day_label_kept(lose(FULL, "when"))
    assert displayed_day(FULL, 2) == 2 and displayed_day(lose(FULL, "when"), 2) is None
    assert displayed_day((Detail("when", "4", fabricated=True, original="2", origin="u"),), 2) == 4
    assert not cannot_remember_who(FULL) and cannot_remember_who(lose(FULL, "who"))
    assert n_lost(lose(lose(FULL, "who"), "where")) == 2 and not any_fabricated(FULL)


def test_unknown_kind_is_rejected() -> None:
    with pytest.raises(UsageProblem, match="who, whom"):
        Detail("why", "because")


texts = st.text(max_size=20)
details = st.builds(Detail, st.sampled_from(list(DetailKind)), texts, st.booleans(), st.booleans(),
                    st.none() | texts, st.none() | texts)


@given(st.lists(details, max_size=8))
def test_json_round_trip(ds: list[Detail]) -> None:
    text = details_to_json(ds)
    assert details_from_json(text) == tuple(ds)
    for obj in json.loads(text):
        assert set(obj) == {"kind", "value", "lost", "fabricated", "original", "origin"}


def test_json_defaults_and_rejections() -> None:
    assert details_from_json('[{"kind": "who", "value": "Anna"}]') == (Detail("who", "Anna"),)
    for bad in ("{", '{"kind": "who"}', '[{"kind": "why", "value": "x"}]', '[{"kind": "who", "value": 3}]',
                '[{"kind": "who", "value": "x", "extra": 1}]', '[{"kind": "who", "value": "x", "origin": 5}]'):
        with pytest.raises(GraphmemError):
            details_from_json(bad)
