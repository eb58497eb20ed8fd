"""The banish ballot rounds of a game as its events go by (docs/perception.md#claims): a round is the day of its
banish ballot; a claim about a vote names its round.

:class:`BallotRounds` follows a game's banish votes and banishments (the canonical game state,
:mod:`graphmem.logs.state`, and every importer keep one); :meth:`BallotRounds.at` gives the :class:`VoteRounds`
as they stand at one statement, which the claim extractor (:mod:`graphmem.claims.extract`) uses to name the round a
vote claim is about.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["BallotRounds", "VoteRounds"]


@dataclass(frozen=True)
class VoteRounds:
    """The banish ballot rounds as they stand at one statement (docs/perception.md#claims: a claim about a vote names
    its round).

    A round is the day of its ballot. ``open`` : the day of the round in progress (votes cast, no banishment yet)
    or None; ``finished`` : the day of the last round that ended (by a banishment, or because its day is over) or
    None; ``coming`` : the round a statement of intent is about ("I'm voting for X", "I will vote for X"): the
    round of the statement's day unless that round has ended, else the next day's; ``voting`` : the statement is
    made where the coming round's ballot is held (at the round table, before that round ended); ``votes`` :
    {round: {voter: target}}, the votes cast so far.
    """

    open: int | None
    finished: int | None
    coming: int
    voting: bool = False
    votes: Mapping[int, Mapping[str, str]] = field(default_factory=dict)

    def past(self, subject: str, target: str) -> int | None:
        """The round a claim that ``subject`` voted (or did not vote) for ``target`` is about: the latest ballot
        before the statement. That is the round in progress when ``subject`` has already voted in it (a reason
        given after the vote), else the last finished round; when both are candidates ("Gwendolyn voted to
        eliminate Riley" said after her vote of today, about yesterday's), the one in which ``subject`` voted for
        ``target``, if either. None before any ballot."""
        candidates = [r for r in (self.open, self.finished) if r is not None
                      and (r != self.open or subject in self.votes.get(r, {}))]
        for r in candidates:
            if self.votes.get(r, {}).get(subject) == target:
                return r
        return candidates[0] if candidates else None


class BallotRounds:
    """Follows the banish ballots of a game as its events go by, to give each statement its :class:`VoteRounds`.

    Call :meth:`vote` for each banish vote, :meth:`banished` for each banishment (both with the event's day), and
    :meth:`at` (with the statement's day) before a statement.
    """

    def __init__(self) -> None:
        self._votes: dict[int, dict[str, str]] = {}
        self._ended: set[int] = set()

    def vote(self, day: int, voter: str, target: str) -> None:
        """Record a banish vote of ``day``'s round."""
        self._votes.setdefault(day, {})[voter] = target

    def copy(self) -> BallotRounds:
        """An independent copy."""
        other = BallotRounds()
        other._votes = {day: dict(votes) for day, votes in self._votes.items()}
        other._ended = set(self._ended)
        return other

    def banished(self, day: int) -> None:
        """Record that ``day``'s round ended with a banishment."""
        self._ended.add(day)

    def at(self, day: int, *, table: bool = False) -> VoteRounds:
        """The rounds as they stand for a statement on ``day``; ``table``: the statement is made at the round table
        (where the ballot is held)."""
        rounds = set(self._votes) | self._ended
        finished = [r for r in rounds if r < day or r in self._ended]
        open_ = day if day in self._votes and day not in self._ended else None
        return VoteRounds(open=open_, finished=max(finished) if finished else None,
                          coming=day + 1 if day in self._ended else day, voting=table and day not in self._ended,
                          votes={r: dict(v) for r, v in self._votes.items()})
