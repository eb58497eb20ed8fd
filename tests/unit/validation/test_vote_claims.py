"""People's vote claims found by rule and checked against the record (graphmem.validation.vote_claims,
docs/validation.md#vote-claims)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphmem.logs.reader import read_game_log
from graphmem.validation.vote_claims import exact_interval, find_vote_claims

PLAYERS = [f"player-{i}" for i in range(1, 7)]
HEADER: dict[str, Any] = {"kind": "game", "format": "graphmem/1", "game": "claims", "players": [
    {"name": p, "role": r} for p, r in zip(PLAYERS, ["merlin", "percival", "morgana", "assassin", "servant",
                                                     "servant"])], "traitor_roles": ["morgana", "assassin"]}


def say(speaker: str, text: str) -> dict[str, Any]:
    return {"kind": "say", "speaker": speaker, "to": "all", "channel": "public", "text": text, "claims": []}


def party(tag: str, choices: str) -> list[dict[str, Any]]:
    """A party vote: one vote per player (``choices`` of y/n in player order) and its outcome."""
    votes: list[dict[str, Any]] = [{"kind": "vote", "id": f"{tag}-{p}", "voter": p, "ballot": "team",
                                    "choice": "approve" if c == "y" else "reject"} for p, c in zip(PLAYERS, choices)]
    approved = choices.count("y") > 3
    return [*votes, {"kind": "outcome", "ballot": "team", "what": "the party vote", "about": ["player-1"],
                     "result": "approved" if approved else "rejected"}]


def log_of(tmp_path: Path, *events: dict[str, Any]) -> Any:
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in [HEADER, *events]), encoding="utf-8")
    return read_game_log(path)


def test_claims_about_the_latest_party_are_found_and_checked(tmp_path: Path) -> None:
    log = log_of(tmp_path, *party("p1", "yyyyyy"), *party("p2", "ynnyny"),
                 say("player-5", "player-2 and player-3 rejected it, that is odd"),
                 say("player-6", "I voted no because I distrust player-1"),
                 say("player-1", "player-4 didn't approve either"),
                 say("player-2", "player-6 said no. and player-5 also voted for it"))
    found = [(c.speaker, c.subject, c.claimed, c.recorded, c.wrong) for c in find_vote_claims(log)]
    assert found == [
        ("player-5", "player-2", "reject", "reject", False),
        ("player-5", "player-3", "reject", "reject", False),
        ("player-6", "player-6", "reject", "approve", True),   # the speaker's own vote, misremembered
        ("player-1", "player-4", "reject", "approve", True),   # a negation claims the other choice
        ("player-2", "player-6", "reject", "approve", True),
        ("player-2", "player-5", "approve", "reject", True),
    ]


def test_talk_about_votes_to_come_or_without_a_vote_before_is_no_checkable_claim(tmp_path: Path) -> None:
    log = log_of(tmp_path, say("player-1", "player-2 voted no"),   # no party vote yet: not checkable
                 *party("p1", "yyyyyy"),
                 say("player-3", "I will vote yes on the next one"), say("player-4", "player-5 will reject"),
                 say("player-5", "player-10 voted no"))              # nobody of that name
    claims = find_vote_claims(log)
    assert [(c.subject, c.checkable) for c in claims] == [("player-2", False)]


@pytest.mark.parametrize(("errors", "n", "low", "high"), [
    (1, 35, 0.000723, 0.149),   # the pilot's figure of issue 39: 1 of 35, exact 95% CI 0.1%-15%
    (0, 10, 0.0, 0.308),
    (10, 10, 0.692, 1.0),
])
def test_exact_interval_is_clopper_pearson(errors: int, n: int, low: float, high: float) -> None:
    got = exact_interval(errors, n)
    assert got == pytest.approx((low, high), abs=1e-3)


def test_exact_interval_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="errors <= n"):
        exact_interval(3, 2)
