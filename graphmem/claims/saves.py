"""Claimed saves (docs/perception.md#claims): "I protected Mason last night", the claim a Werewolf player checks
against what they know of the night.

A save claim is ``{speaker, "protected", X}``: the speaker says they protected X in the night before the statement
(the night of the statement's day: in Werewolf a day's debate follows that day's night). Recognised at the start of
a sentence (after "I am the Doctor," and similar lead-ins are split off as their own sentence by the claim
extractor's rules), in the first person only: "I protected X", "I saved X", "I chose to protect X", "I was the one
who protected X", optionally followed by "last night" or "tonight"; "I protected myself" names the speaker.
Questions, conditionals and negations ("I didn't protect X") give none, as in :mod:`graphmem.claims.extract`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graphmem.logs.schema import Claim

PREDICATE = "protected"
"""The predicate of a save claim."""

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\s*\n\s*")
_HYPOTHETICAL = re.compile(r"\b(?:if|unless|whether|suppose|assuming|imagine|pretend|would|could)\b", re.IGNORECASE)


class SaveExtractor:
    """Save claims of one game's players (compiled once).

    players : iterable of str, the game's player names (matched ignoring case, returned as spelled here)
    """

    def __init__(self, players: Iterable[str]) -> None:
        names = sorted(set(players), key=len, reverse=True)
        self._canonical = {n.casefold(): n for n in names}
        name = "|".join(re.escape(n) for n in names) or r"(?!x)x"
        self._pattern = re.compile(
            rf"^(?:and\s+|so\s+|but\s+)?I\s+(?:(?:chose|decided)\s+to\s+(?:protect|save)|protected|saved|"
            rf"was\s+the\s+one\s+who\s+(?:protected|saved))\s+(?P<obj>{name}|myself)(?!\w)", re.IGNORECASE)

    def extract(self, text: str, speaker: str) -> list[Claim]:
        """The save claims of one statement by ``speaker``, in order, without duplicates."""
        claims: list[Claim] = []
        for sentence in _SENTENCE.split(text):
            sentence = sentence.strip()
            if not sentence or sentence.endswith("?") or _HYPOTHETICAL.search(sentence):
                continue
            m = self._pattern.match(sentence)
            if m is None:
                continue
            obj = speaker if m["obj"].casefold() == "myself" else self._canonical[m["obj"].casefold()]
            claim = Claim(subject=speaker, predicate=PREDICATE, object=obj)
            if claim not in claims:
                claims.append(claim)
        return claims
