"""Save claims (graphmem/claims/saves.py): "I protected X" as a Werewolf player says it, and what is no claim."""

from __future__ import annotations

import pytest

from graphmem.claims.saves import SaveExtractor

SAVES = SaveExtractor(["Mason", "Sam", "Hayley"])


@pytest.mark.parametrize(("text", "expected"), [
    ("I protected Sam last night, so you can trust me.", ["Sam"]),
    ("I am the Doctor. I protected Mason last night, which is why nobody died.", ["Mason"]),
    ("I saved hayley tonight.", ["Hayley"]),
    ("I chose to protect myself.", ["Hayley"]),
    ("I was the one who saved Mason.", ["Mason"]),
    ("And I protected Sam.", ["Sam"]),
])
def test_a_save_claimed_in_the_first_person(text: str, expected: list[str]) -> None:
    claims = SAVES.extract(text, "Hayley")
    assert [(c.subject, c.predicate, c.object, c.polarity) for c in claims] == [
        ("Hayley", "protected", name, True) for name in expected]


@pytest.mark.parametrize("text", [
    "Did you protect Sam?",                     # a question
    "If I protected Sam, he would be alive.",   # a conditional
    "I didn't protect Sam.",                    # a negation claims no save
    "The Doctor protected Sam.",                # not the speaker's own
    "I would have saved Mason.",                # what did not happen
    "We must protect Sam tonight.",             # a plan, not a save
])
def test_what_is_no_save_claim(text: str) -> None:
    assert SAVES.extract(text, "Hayley") == []
