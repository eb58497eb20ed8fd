"""Consolidation across a series, planned without a database: what the owner remembers, in their words."""

from __future__ import annotations

import json
import math
from typing import Any

from graphmem.jobs.series_consolidation import plan_series_summary, remembered_side, summary_text
from graphmem.model import default_parameters

PARAMS = default_parameters()


def reveal(uid: str, whom: str, role: str, *, lost: bool = False, strength: float = 0.6) -> dict[str, Any]:
    details = [{"kind": "whom", "value": whom, "lost": lost, "fabricated": False, "original": None, "origin": None}]
    return {"uid": uid, "kind": "reveal", "text": f"{whom} is {role}.", "details_json": json.dumps(details),
            "about": [whom], "role": role, "t_enc": 5, "strength": strength, "s": 4.0, "salience": 0.5}


def reflection(uid: str, about: str | None, text: str, t_enc: int = 6, mentions: tuple[str, ...] = ()) -> dict[str, Any]:
    """A reflect memory as ingest stores it: about ``about`` (None: a self-assessment), its words as the quote, and
    in ``about`` also the players its text mentions."""
    details = ([{"kind": "whom", "value": about, "lost": False, "fabricated": False, "original": None,
                 "origin": None}] if about else []) + [
        {"kind": "quote", "value": text, "lost": False, "fabricated": False, "original": None, "origin": None}]
    lead = f"about {about}" if about else "about yourself"
    return {"uid": uid, "kind": "reflect", "text": f'You concluded {lead} after the game: "{text}"',
            "details_json": json.dumps(details), "about": [a for a in (about, *mentions) if a], "role": None,
            "t_enc": t_enc, "strength": 0.5, "s": 3.0, "salience": 0.4}


def game(position: int, memories: list[dict[str, Any]]) -> dict[str, Any]:
    return {"game": f"g{position}", "position": position, "mine": "Alice", "theirs": "Charlie",
            "traitor_roles": ["assassin", "minion"], "sides": ["evil", "good"], "memories": memories}


def row(games: list[dict[str, Any]], profile: str = "balanced") -> dict[str, Any]:
    return {"latest": "g9", "phase": 3, "day": 1, "phase_name": "discussion", "owner": "Alice", "profile": profile,
            "threshold": 0.18, "observed": "Charlie", "observed_person": "series/s/person/charlie", "games": games}


def test_a_side_is_remembered_only_through_the_owners_reveal_of_that_player() -> None:
    assert remembered_side(game(1, [reveal("a", "Charlie", "assassin")])) is True
    assert remembered_side(game(1, [reveal("a", "Charlie", "loyal servant")])) is False
    assert remembered_side(game(1, [reveal("a", "Charlie", "evil")])) is True  # Merlin's knowledge: a side name
    assert remembered_side(game(1, [reveal("a", "Charlie", "assassin", lost=True)])) is None  # who? forgotten
    assert remembered_side(game(1, [reveal("a", "Bob", "assassin")])) is None
    assert remembered_side(game(1, [])) is None


def test_the_summary_counts_remembered_sides_and_quotes_the_latest_reflection() -> None:
    games = [game(1, [reveal("r1", "Charlie", "assassin")]),
             game(2, [reveal("r2", "Charlie", "loyal servant"), reflection("f2", "Charlie", "Quiet. Too quiet.")]),
             game(3, [reveal("r3", "Charlie", "minion", lost=True)]),
             game(4, [reveal("r4", "Charlie", "minion"),
                      reflection("f4", "Charlie", "He blends in early. Then he fails the second quest."),
                      # the owner's reflections that only mention Charlie are about someone else: no note, no member
                      reflection("f5", "Eve", "Eve hid behind Charlie all game.", t_enc=7, mentions=("Charlie",)),
                      reflection("f6", None, "I trusted Charlie too long.", t_enc=8, mentions=("Charlie",))])]
    planned = plan_series_summary("s", row(games), PARAMS)
    assert planned is not None
    assert planned.props["text"] == ("Charlie was on the evil side in 2 of your 4 games together (you do not "
                                     "remember Charlie's side in 1 of them); after game 4 you noted: \"He blends in "
                                     "early.\"")
    assert (planned.games, planned.hidden, planned.known) == (4, 2, 3)
    assert planned.members == ("f2", "f4", "r1", "r2", "r4")  # not r3: its player is forgotten
    assert planned.uid.startswith("g9/summary/Alice/series-")
    assert planned.props["e0"] == min(1.0, 0.6 + PARAMS.consolidation.strength_boost)
    assert planned.props["s"] == PARAMS.consolidation.stability_factor * 4.0
    assert planned.props["source_type"] == "inferred" and planned.props["about"] == ["Charlie"]
    again = plan_series_summary("s", row(list(reversed(games))), PARAMS)
    assert again is not None and again.uid == planned.uid  # the uid derives from the members


def test_too_little_remembered_gives_no_summary_and_perfect_owners_never_forget_it() -> None:
    assert plan_series_summary("s", row([game(1, [reveal("r1", "Charlie", "assassin")]), game(2, [])]), PARAMS) is None
    two = [game(1, [reveal("r1", "Charlie", "assassin")]), game(2, [reveal("r2", "Charlie", "assassin")])]
    planned = plan_series_summary("s", row(two, profile="perfect"), PARAMS)
    assert planned is not None and math.isinf(planned.props["s"]) and planned.props["decay_rate"] == 0
    assert plan_series_summary("s", row(two), PARAMS, min_games=3) is None


def test_the_wording_without_sides_or_notes() -> None:
    assert summary_text("Bob", 3, 0, 3, "evil", None) == "Bob was on the evil side in none of your 3 games together."
    assert summary_text("Bob", 2, 0, 0, "traitor", (2, "Bob talks a lot.")) == \
        'You played 2 games with Bob; after game 2 you noted: "Bob talks a lot."'
