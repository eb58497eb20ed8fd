"""The state of one plomp conversion: players, roles, who is alive, the current phase and day, and the output (a
:class:`~graphmem.importers.base.ConversionBuilder`, as every importer's)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from graphmem.claims.extract import ClaimExtractor
from graphmem.errors import LogProblem
from graphmem.importers.base import ConversionBuilder, Unconvertible
from graphmem.importers.traitors_plomp.phases import day_after, phase_event
from graphmem.logs.ballots import BallotRounds


@dataclass
class _Game:
    """The state of one conversion."""

    game_id: str
    players: list[str]
    roles: dict[str, str]
    patterns: dict[str, dict[str, re.Pattern[str]]]
    claims: ClaimExtractor
    mention: re.Pattern[str]
    canonical: dict[str, str]
    eliminated: set[str] = field(default_factory=set)
    phase: str = "pregame"
    day: int = 0
    pending_victim: str | None = None
    ballots: BallotRounds = field(default_factory=BallotRounds)
    out: ConversionBuilder = field(default_factory=ConversionBuilder)

    def name(self, text: str) -> str:
        return self.canonical[text.casefold()]

    def living_traitors(self) -> list[str]:
        return [p for p in self.players if self.roles[p] == "traitor" and p not in self.eliminated]

    def living(self) -> list[str]:
        return [p for p in self.players if p not in self.eliminated]

    def mentions(self, text: str, exclude: str | None = None) -> list[str]:
        named = {self.name(m.group(0)) for m in self.mention.finditer(text)}
        return [p for p in self.players if p in named and p != exclude]

    def enter(self, phase: str | None, index: int, t: Any) -> None:
        if phase is None or phase == self.phase:
            return
        self.day = day_after(self.phase, self.day, phase)
        self.phase = phase
        self.out.emit(phase_event(index, t, self.day, phase), f"buffer_items[{index}]")


@dataclass
class _Context:
    """One event item as a handler sees it: the game, the item's position, type, text, payload and witnesses."""

    game: _Game
    index: int
    etype: str
    text: str
    payload: dict[str, Any]
    witnesses: list[str]
    text_field: str
    keywords: dict[str, str] = field(default_factory=dict)
    """The keyword slots of the matched pattern, each read as its keyword (``{"choice": "CONTINUE_PLAYING"}``)."""
    day: int = 0
    """The day the event falls on (its phase may open a new day)."""

    def problem(self, reason: str, where: str | None = None) -> Unconvertible:
        return Unconvertible(LogProblem(0, where or self.text_field, f"{self.etype}: {reason}"))
