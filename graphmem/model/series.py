"""The clock of a series of games (docs/model.md#series-of-games): one time line for games that each count their own
phases from 0.

A series lays its games end to end with ``gap`` phases between two of them: game ``i`` (in series order) starts at
series phase ``offset[i]``, ``offset[0] = 0`` and ``offset[i + 1] = offset[i] + last_phase[i] + gap``. Phase ``t``
of game ``i`` is series phase ``offset[i] + t``, and series phase ``T`` is phase ``T - offset[i]`` of game ``i``,
a phase past its end for an earlier game: that is how far its memories have faded. Each game keeps its own phase
numbers (``t_enc``, ``t_ref``) and the forgetting laws of docs/model.md#forgetting apply unchanged; the series only
says which phase of each game "now" is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["SeriesClock", "series_clock"]


@dataclass(frozen=True)
class SeriesClock:
    """The games of one series in order, as the clock needs them.

    last_phases : each game's last phase index (int >= 0), in series order
    decayed_to : each game's ``Game.decayed_to`` (int >= 0), the phase its memories have been decayed to
    gap : int >= 0, phases between the end of a game and the start of the next (``Series.gap``)
    """

    last_phases: tuple[int, ...]
    decayed_to: tuple[int, ...]
    gap: int

    def __post_init__(self) -> None:
        if len(self.last_phases) != len(self.decayed_to):
            raise ValueError("last_phases and decayed_to need one value per game")
        if self.gap < 0:
            raise ValueError(f"gap must be >= 0 phases, not {self.gap}")

    @property
    def offsets(self) -> tuple[int, ...]:
        """The series phase at which each game starts: 0 for the first, then the previous game's start + its last
        phase + gap."""
        out: list[int] = []
        start = 0
        for last in self.last_phases:
            out.append(start)
            start += last + self.gap
        return tuple(out)

    @property
    def now(self) -> int:
        """The series phase now: the furthest any game has been decayed to, on the series' time line (0 for no
        game)."""
        return max((o + d for o, d in zip(self.offsets, self.decayed_to)), default=0)

    def phases_now(self) -> tuple[int, ...]:
        """The phase each game is at now, in its own numbering: ``now - offset`` (past its last phase for the earlier
        games, never below the phase it has been decayed to)."""
        now = self.now
        return tuple(max(now - o, d) for o, d in zip(self.offsets, self.decayed_to))

    def behind(self) -> list[tuple[int, int]]:
        """(index in series order, phase) of each game whose memories must be decayed further to reach now."""
        return [(i, t) for i, (t, d) in enumerate(zip(self.phases_now(), self.decayed_to)) if t > d]


def series_clock(last_phases: Sequence[int], decayed_to: Sequence[int], gap: int) -> SeriesClock:
    """A :class:`SeriesClock` from plain sequences (see there)."""
    return SeriesClock(tuple(int(x) for x in last_phases), tuple(int(x) for x in decayed_to), int(gap))
