"""How much of what players say the stance extractor reads (docs/perception.md#claims): the share of statements that
name another player and yield a stance on a player they name.

``python -m bench.stance_coverage PATH...`` prints the figures for game logs (files or folders, canonical or any
importer's format); on the 40 real games of ``../shared/data/traitors-llm/games`` it prints (at the time of writing)
1,966 statements naming a player, 1,143 with a stance: 58%. Pure: the events come in, the counts go out.

Statements are those stances are read from (:func:`graphmem.claims.extract.statement_options`): ``say`` events not
on the traitors' channel and the reason texts of banish and end-game votes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graphmem.claims.extract import statement_options
from graphmem.claims.stances import StanceExtractor
from graphmem.logs.schema import Event, SayEvent, VoteEvent

__all__ = ["StanceCoverage", "stance_coverage"]


@dataclass(frozen=True)
class StanceCoverage:
    """statements : statements stances are read from; naming : those that name another player (whole word, any
    case); with_stance : those of them that yield a stance on a player they name; stances : stance claims in all
    the statements (on named players or on the addressee)."""

    statements: int = 0
    naming: int = 0
    with_stance: int = 0
    stances: int = 0

    @property
    def share(self) -> float:
        """with_stance / naming (0 when nothing names a player)."""
        return self.with_stance / self.naming if self.naming else 0.0

    def __add__(self, other: StanceCoverage) -> StanceCoverage:
        return StanceCoverage(self.statements + other.statements, self.naming + other.naming,
                              self.with_stance + other.with_stance, self.stances + other.stances)


def stance_coverage(players: Sequence[str], events: Iterable[Event]) -> StanceCoverage:
    """The coverage of one game's statements (``players``: the header's names)."""
    extractor = StanceExtractor(players)
    total = StanceCoverage()
    for event in events:
        options = statement_options(event)
        if options is None or not options[1]:
            continue
        text, _, addressee = options
        speaker = event.speaker if isinstance(event, SayEvent) else event.voter if isinstance(event, VoteEvent) \
            else ""
        named = {p for p in players if p != speaker
                 and re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text, re.IGNORECASE)}
        found = extractor.extract(text, speaker, addressee)
        total += StanceCoverage(1, bool(named), bool(named) and any(c.object in named for c in found), len(found))
    return total
