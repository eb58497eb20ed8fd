"""What the contradiction rules work on and produce (docs/jobs.md#contradictions): one owner's memories as the rules see
them, the truths the owner holds, the conflicts already stored, and a planned conflict. Pure: no I/O.

The rules themselves are in :mod:`graphmem.claims.conflict_rules` (claims: roles, votes, stances) and
:mod:`graphmem.claims.conflicts` (similar texts, resolution, and :func:`graphmem.claims.conflicts.detect`, which runs
them all); the sentences a player reads in :mod:`graphmem.claims.conflict_words`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

__all__ = ["CORRECT", "IDENTITY", "KEEP_A", "KEEP_B", "KEEP_BOTH", "LIE", "MINOR", "OPEN", "PREFERENCE", "RESOLVED",
           "ROLE", "ROLE_WORDS", "SIDE", "STANCE", "TEMPORAL", "VOTED_FOR", "ClaimRow", "ConflictPlan", "Known",
           "OwnerMemory", "Sides", "Truth", "allowed", "describe", "norm", "pairs", "role_universe"]

IDENTITY, TEMPORAL, PREFERENCE, MINOR, LIE = "identity", "temporal", "preference", "minor", "lie"
OPEN, RESOLVED = "open", "resolved"
KEEP_A, KEEP_B, KEEP_BOTH, CORRECT = "keep_a", "keep_b", "keep_both", "correct"
ROLE, VOTED_FOR, STANCE, SIDE = "role", "voted_for", "stance", "side"

ROLE_WORDS = {"traitor": "traitor", "traitors": "traitor", "faithful": "faithful", "faithfuls": "faithful"}
"""Role words recognised in free text (The Traitors), mapped to the role they name."""

ClaimRow = tuple[str, str, str, bool, int | None]
"""A stored claim: (subject, predicate, object, polarity, round or None); ``claims_json`` items have 4 or 5 items."""


@dataclass(frozen=True)
class OwnerMemory:
    """One memory as the rules need it.

    uid : str; event : the event uid or None (summaries); phase : int, ``t_enc``; text : str;
    claims : tuple of ClaimRow (``claims_json``); about : player names; embedding : array of shape (dimension,) or
    None; kind : the memory's kind ("say", "vote", "banish", ..., "summary"); speaker : who said or did it (the
    event's actor: a statement's speaker, a vote's voter), None for a summary; source : the source type
    (first_hand, direct_told, overheard, group_discuss, inferred); day : int or None; line : int, the event's line
    in the log (orders the events of one phase); ballot : a vote's ballot, else None
    """

    uid: str
    event: str | None
    phase: int
    text: str
    claims: tuple[ClaimRow, ...] = ()
    about: tuple[str, ...] = ()
    embedding: npt.NDArray[np.float64] | None = field(default=None, repr=False, compare=False)
    kind: str = "say"
    speaker: str | None = None
    source: str | None = None
    day: int | None = None
    line: int = 0
    ballot: str | None = None

    @property
    def order(self) -> tuple[int, int, str]:
        """Sort key: phase, line in the log, uid."""
        return (self.phase, self.line, self.uid)

    @property
    def witnessed_vote(self) -> tuple[str, str, int] | None:
        """(voter, target, round) when this is the owner's memory of seeing (or casting) a banish vote: a ``vote``
        memory whose own claim says the voter voted for the target in the round of its day."""
        if self.kind != "vote" or self.ballot != "banish" or self.speaker is None:
            return None
        for subject, predicate, obj, polarity, round_ in self.claims:
            if predicate == VOTED_FOR and subject == self.speaker and polarity and round_ is not None \
                    and (self.day is None or round_ == self.day):
                return subject, obj, round_
        return None

    @staticmethod
    def parse_claims(claims_json: str | None) -> tuple[ClaimRow, ...]:
        """The claims of a ``claims_json`` value (4 items, or 5 with a round); malformed items are skipped."""
        try:
            data = json.loads(claims_json or "[]")
        except ValueError:
            return ()
        out: list[ClaimRow] = []
        for item in data if isinstance(data, list) else []:
            if isinstance(item, list) and len(item) in (4, 5) and all(isinstance(x, str) for x in item[:3]):
                round_ = item[4] if len(item) == 5 and isinstance(item[4], int) else None
                out.append((item[0], item[1], item[2], bool(item[3]), round_))
        return tuple(out)


@dataclass(frozen=True)
class Truth:
    """A role reveal the owner witnessed and holds: ``subject`` is a ``role`` at ``phase``; ``final`` when the
    subject was eliminated by then (the role can no longer change); ``memory`` is the uid of the reveal's
    memory (for the reason text)."""

    subject: str
    role: str
    phase: int
    final: bool
    memory: str


@dataclass(frozen=True)
class Known:
    """A conflict already stored: its uid, kind, status, subject, predicate and its two memories (a, b)."""

    uid: str
    kind: str
    status: str
    subject: str | None
    predicate: str | None
    a: str
    b: str


@dataclass
class ConflictPlan:
    """One conflict between memories ``a`` and ``b`` (``a`` encoded first) of one owner.

    uid, kind, status, resolution (or None), subject (the player the conflict is about, or None), predicate
    ("role", "voted_for", "stance", "trust", "text"), detected_phase (the later memory's phase: when the owner came
    to hold both), resolved_phase (or None), reason (one sentence, for analysts), losers (memory uids the
    resolution tombstones), speaker (whose words conflict: the liar of a lie, the player whose stance reversed;
    None when two players disagree), round (the ballot round of a vote conflict, else None), text (the conflict
    in a player's words, from the owner's side: what the prompt block shows; None: the generic line)
    """

    uid: str
    kind: str
    status: str
    resolution: str | None
    subject: str | None
    predicate: str
    a: str
    b: str
    detected_phase: int
    resolved_phase: int | None
    reason: str
    losers: tuple[str, ...] = ()
    speaker: str | None = None
    round: int | None = None
    text: str | None = None

    def props(self, game: str, owner: str) -> dict[str, object]:
        """The Conflict node's properties (docs/graph-model.md), with ``memory_a``/``memory_b``."""
        return {"uid": self.uid, "game": game, "owner": owner, "kind": self.kind, "status": self.status,
                "resolution": self.resolution, "subject": self.subject, "predicate": self.predicate,
                "detected_phase": self.detected_phase, "resolved_phase": self.resolved_phase,
                "reason": self.reason, "memory_a": self.a, "memory_b": self.b, "speaker": self.speaker,
                "round": self.round, "text": self.text}


# -- values and universes -----------------------------------------------------------------------------------------

def norm(value: str) -> str:
    """A role value as compared: whitespace collapsed, lower case, "traitors" -> "traitor"."""
    word = " ".join(value.split()).casefold()
    return ROLE_WORDS.get(word, word)


def role_universe(roles: Iterable[str]) -> frozenset[str]:
    """The role values a ``role`` claim ranges over: the given role words (players' roles, claimed and revealed
    roles), normalised (lower case; "traitors" -> "traitor"), plus The Traitors' two roles."""
    return frozenset({norm(r) for r in roles} | {"traitor", "faithful"})


@dataclass(frozen=True)
class Sides:
    """The two sides of a game as the rules read a ``side`` claim or a side reveal (docs/perception.md#claims; Avalon's
    "evil" and "good": the header's ``side_names``): ``hidden`` the name of the traitor side and ``other`` that of
    everyone else, normalised (:func:`norm`); ``roles`` the traitor side's roles, normalised.

    A side name that is also a role of the game (The Traitors' "traitor" and "faithful", Mafia's "mafia" and
    "bystander") is read as that role: the game's claims and reveals name roles, and nothing changes for it.
    """

    hidden: str = "traitor"
    other: str = "faithful"
    roles: frozenset[str] = frozenset({"traitor"})

    @classmethod
    def of(cls, side_names: Sequence[str], traitor_roles: Iterable[str]) -> Sides:
        """From the header's ``side_names`` (hidden side, other side) and ``traitor_roles``."""
        return cls(norm(side_names[0]), norm(side_names[1]), frozenset(norm(r) for r in traitor_roles))

    @property
    def names(self) -> frozenset[str]:
        """The two side names."""
        return frozenset({self.hidden, self.other})

    def groups(self, universe: frozenset[str]) -> dict[str, frozenset[str]]:
        """{side name: the roles of ``universe`` on that side}, for the side names that are no role of
        ``universe`` ("traitor" stays a role of The Traitors, never a side)."""
        hidden = frozenset(r for r in universe if r in self.roles)
        out: dict[str, frozenset[str]] = {}
        if self.hidden not in universe:
            out[self.hidden] = hidden
        if self.other not in universe:
            out[self.other] = universe - hidden - {"traitor"}
        return out


def allowed(constraints: Sequence[tuple[str, bool]], universe: frozenset[str],
            sides: Sides | None = None) -> frozenset[str]:
    """The values of ``universe`` (and the constrained ones) that satisfy every (value, polarity) constraint. With
    ``sides``, a constraint whose value is a side name (:meth:`Sides.groups`) is met by the roles of that side
    ("evil": any evil role; "not good": likewise)."""
    groups = sides.groups(universe) if sides is not None else {}
    values = universe | {v for v, _ in constraints if v not in groups}

    def meets(value: str, c: str, polarity: bool) -> bool:
        return (value in groups[c] if c in groups else value == c) == polarity
    return frozenset(v for v in values if all(meets(v, c, polarity) for c, polarity in constraints))


def describe(constraints: Sequence[tuple[str, bool]]) -> str:
    """"traitor", "not traitor and not faithful", ... (for reasons)."""
    return " and ".join(f"{'' if polarity else 'not '}{value}" for value, polarity in constraints)


def pairs(order: Sequence[str], conflicting: Mapping[tuple[str, str], bool]) -> list[tuple[str, str]]:
    """The pairs (earlier, later) to store among memories ``order`` (sorted by time) that conflict pairwise
    (``conflicting[(x, y)]``, x before y): each memory is paired with the latest earlier memory it conflicts with,
    or, when there is none, with the earliest later one. Every memory that conflicts with another is in at least
    one pair, and there are fewer pairs than memories (all pairs would grow quadratically with repeats)."""
    found: list[tuple[str, str]] = []
    for j, uid in enumerate(order):
        earlier = [order[i] for i in range(j - 1, -1, -1) if conflicting.get((order[i], uid))]
        if earlier:
            pair = (earlier[0], uid)
        else:
            later = [order[i] for i in range(j + 1, len(order)) if conflicting.get((uid, order[i]))]
            if not later:
                continue
            pair = (uid, later[0])
        if pair not in found:
            found.append(pair)
    return found
