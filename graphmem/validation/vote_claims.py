"""People's statements about how someone voted on an earlier party, found by rule and checked against the record
(docs/validation.md#vote-claims). Pure: a game log in, the claims and their check out.

The rule, on the lower-cased message: a subject (``player-N``, a list of them joined by ``,`` / ``and`` / ``&``,
or ``i`` for the speaker), a few adverbs at most, then a past-tense vote phrase: ``voted yes|no|for|against|to
approve|to reject|approve|reject``, ``approved``, ``rejected``, ``accepted``, ``declined``, ``said yes|no``; or its
negation (``didn't``/``did not``/``never`` + ``vote yes|no|for|against``, ``approve``, ``reject``, ``accept``,
``decline``, ``say yes|no``), which claims the other choice. The party is the latest party vote before the message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmem.logs.reader import GameLog
from graphmem.logs.schema import SayEvent, VoteEvent

__all__ = ["VoteClaim", "exact_interval", "find_vote_claims"]

_PLAYER = r"[a-z][\w.-]*"
_ADVERBS = r"(?:(?:also|just|all|both|even|already|actually|originally|clearly|literally|then)\s+)*"
_APPROVE = {"yes", "for", "approve", "approved", "accepted", "to approve"}
_REJECT = {"no", "against", "reject", "rejected", "declined", "to reject"}
_POSITIVE = (r"voted\s+(?P<v>yes|no|for|against|to approve|to reject|approve|reject)\b"
             r"|(?P<p>approved|rejected|accepted|declined)\b|said\s+(?P<s>yes|no)\b")
_NEGATED = (r"(?:didn't|didnt|did not|never)\s+(?:vote\s+(?P<nv>yes|no|for|against)\b"
            r"|(?P<np>approve|reject|accept|decline)\b|say\s+(?P<ns>yes|no)\b)")
_NEGATED_CHOICE = {"yes": "reject", "for": "reject", "approve": "reject", "accept": "reject",
                   "no": "approve", "against": "approve", "reject": "approve", "decline": "approve"}


@dataclass(frozen=True)
class VoteClaim:
    """One claim of a message about a player's vote on the latest party vote before it.

    game : str; message : str, the say event's id; index : int, its index in the log; speaker : str
    text : str, the message; subject : str, the player claimed about; claimed : "approve" or "reject"
    party : tuple of str, the event ids of that party vote's votes; vote : str or None, the subject's vote event id
    recorded : str or None, the subject's recorded choice (None: not in that party vote, so not checkable)
    """

    game: str
    message: str
    index: int
    speaker: str
    text: str
    subject: str
    claimed: str
    party: tuple[str, ...]
    vote: str | None
    recorded: str | None

    @property
    def checkable(self) -> bool:
        """True when the record holds the subject's vote on that party."""
        return self.recorded is not None

    @property
    def wrong(self) -> bool:
        """True when the claimed choice is not the recorded one."""
        return self.recorded is not None and self.recorded != self.claimed


def _pattern(players: list[str]) -> re.Pattern[str]:
    names = "|".join(re.escape(p.casefold()) for p in sorted(players, key=len, reverse=True))
    subject = rf"(?:{names}|i)"
    subjects = rf"(?P<subjects>{subject}(?:\s*(?:,|and|&)\s*(?:{names}))*)"
    return re.compile(rf"(?<![\w-])(?:both\s+)?{subjects}\s+{_ADVERBS}(?:{_POSITIVE}|{_NEGATED})")


def _choice(match: re.Match[str]) -> str:
    for group in ("v", "p", "s"):
        word = match.group(group)
        if word:
            return "approve" if word in _APPROVE else "reject"
    for group in ("nv", "np", "ns"):
        word = match.group(group)
        if word:
            return _NEGATED_CHOICE[word]
    raise AssertionError("a vote phrase matched without a choice")


def find_vote_claims(log: GameLog) -> list[VoteClaim]:
    """Every vote claim of the log's chat messages (see the module docstring), in log order."""
    players = log.header.player_names
    by_fold = {p.casefold(): p for p in players}
    pattern = _pattern(list(players))
    claims: list[VoteClaim] = []
    last: list[tuple[str, VoteEvent]] = []  # the latest party vote, complete
    current: list[tuple[str, VoteEvent]] = []  # the party vote being cast
    for index, logged in enumerate(log.events):
        event = logged.event
        if isinstance(event, VoteEvent) and event.ballot == "team" and event.choice is not None:
            current.append((logged.id, event))
            continue
        if current:  # any other event ends the party vote
            last, current = current, []
        if not isinstance(event, SayEvent):
            continue
        text = event.text.casefold()
        for match in pattern.finditer(text):
            claimed = _choice(match)
            for word in re.split(r"\s*(?:,|and|&)\s*", match.group("subjects")):
                if not word:
                    continue
                subject = event.speaker if word == "i" else by_fold.get(word)
                if subject is None:
                    continue
                votes = [(i, v) for i, v in last if v.voter == subject]
                vote_id, recorded = (votes[-1][0], votes[-1][1].choice) if votes else (None, None)
                claims.append(VoteClaim(log.game, logged.id, index, event.speaker, event.text, subject, claimed,
                                        tuple(i for i, _ in last), vote_id, recorded))
    return claims


def exact_interval(errors: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson) interval of a binomial proportion ``errors / n``: (low, high), both in [0, 1].
    Raises ValueError for n < 1 or errors outside 0..n."""
    from scipy.stats import beta

    if n < 1 or not 0 <= errors <= n:
        raise ValueError(f"need 0 <= errors <= n and n >= 1, got errors={errors}, n={n}")
    alpha = 1 - level
    low = 0.0 if errors == 0 else float(beta.ppf(alpha / 2, errors, n - errors + 1))
    high = 1.0 if errors == n else float(beta.ppf(1 - alpha / 2, errors + 1, n - errors))
    return low, high
