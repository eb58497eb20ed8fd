"""The state of one plomp conversion: players, roles, who is alive, the current phase and day, and the output."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from graphmem.errors import LogProblem
from graphmem.logs.claims import BallotRounds, ClaimExtractor
from graphmem.logs.importers.traitors_plomp.phases import day_after, phase_event


class _Unconvertible(Exception):
    """A buffer item that cannot be converted: its problem is reported and the item left out."""

    def __init__(self, problem: LogProblem) -> None:
        super().__init__(problem.reason)
        self.problem = problem


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
    objects: list[dict[str, Any]] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)
    problems: list[LogProblem] = field(default_factory=list)

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
        self.emit(phase_event(index, t, self.day, phase), f"buffer_items[{index}]")

    def emit(self, obj: dict[str, Any], origin: str) -> None:
        self.objects.append(obj)
        self.origins.append(origin)


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
    day: int = 0
    """The day the event falls on (its phase may open a new day)."""

    def problem(self, reason: str, where: str | None = None) -> _Unconvertible:
        return _Unconvertible(LogProblem(0, where or self.text_field, f"{self.etype}: {reason}"))
