"""The evidence about one player in another player's memories (docs/validation.md#beliefs): pure, no I/O.

Four kinds, each item with a value of +1 (points to the evil side) or -1 (to the good side) and the strength of the
memory that holds it:

- ``quest``: a quest result whose team held the player: +1 failed, -1 succeeded;
- ``votes``: the player's vote on a party that went on a quest whose result the believer remembers: +1 approving
  a party that failed or rejecting one that succeeded, -1 the other two; who voted is read from the memory's
  ``who`` detail as it stands (lost: about nobody; imported: about the player it now names);
- ``talk``: another player's statement (not the believer's, not the player's own) with a claim about the player:
  ``suspects`` +1, ``trusts`` -1, a role or side of the hidden side +1, of the other side -1, each flipped when
  negated;
- ``accusations``: the player's statement (who as the memory now says) suspecting the believer or putting the
  believer on the hidden side: +1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from graphmem.claims.conflict_rules import ROLE_PREDICATES
from graphmem.claims.stances import stance_sign
from graphmem.logs.reader import GameLog
from graphmem.logs.schema import Claim, OutcomeEvent, SayEvent, VoteEvent
from graphmem.validation.replay import Held

__all__ = ["EVIDENCE_KINDS", "GameFacts", "Item", "items_about"]

EVIDENCE_KINDS = ("quest", "votes", "talk", "accusations")
"""The kinds of evidence, in the order of the model's features."""

STANCES = ("suspects", "trusts")


@dataclass(frozen=True)
class Item:
    """One piece of evidence about a player in a believer's memory.

    kind : one of EVIDENCE_KINDS; value : +1.0 or -1.0; event : str, the event id; order : int, the event's index in the log
    phase : int, the phase of the event; strength : float in [0, 1], the believer's memory's strength
    """

    kind: str
    value: float
    event: str
    order: int
    phase: int
    strength: float


class GameFacts:
    """What happened in one game, as the evidence needs it: events by id, the team of each quest result, the quest
    result each party vote led to, and the words of the hidden side.

    log : GameLog
    """

    def __init__(self, log: GameLog) -> None:
        self.log = log
        self.index = {logged.id: i for i, logged in enumerate(log.events)}
        self.events = {logged.id: logged for logged in log.events}
        header = log.header
        self.evil_words = {w.casefold() for w in (*header.traitor_roles, header.side_names.traitor, "traitor")}
        self.quest_of_vote: dict[str, str] = {}
        pending: list[str] = []
        led_to_quest: list[str] = []
        for logged in log.events:
            event = logged.event
            if isinstance(event, VoteEvent) and event.ballot == "team" and event.choice is not None:
                pending.append(logged.id)
            elif isinstance(event, OutcomeEvent) and event.ballot == "team":
                led_to_quest = pending if event.result == "approved" else []
                pending = []
            elif isinstance(event, OutcomeEvent) and event.ballot == "quest":
                for vote in led_to_quest:
                    self.quest_of_vote[vote] = logged.id
                led_to_quest = []

    def evil(self, word: str) -> bool:
        """True when a role or side word names the hidden side."""
        return word.casefold() in self.evil_words

    def claim_value(self, claim: Claim, about: str) -> float | None:
        """+1 / -1 for a claim pointing ``about`` to the hidden / the other side, None for a claim not about them."""
        if claim.predicate in STANCES and claim.object == about:
            return -1.0 if stance_sign(claim.predicate, claim.polarity) else 1.0
        if claim.predicate in ROLE_PREDICATES and claim.subject == about:
            evil = self.evil(claim.object)
            return 1.0 if evil == claim.polarity else -1.0
        return None


def _failed(outcome: OutcomeEvent) -> bool:
    return outcome.result == "fail"


def items_about(held: Held, facts: GameFacts, believer: str, player: str) -> list[Item]:
    """The evidence about ``player`` in what ``believer`` holds (see the module docstring), in log order."""
    items: list[Item] = []

    def add(kind: str, value: float, event_id: str, strength: float) -> None:
        logged = facts.events[event_id]
        items.append(Item(kind, value, event_id, facts.index[event_id], logged.phase, strength))

    for event_id, memory in held.items():
        logged = facts.events.get(event_id)
        if logged is None:
            continue
        event = logged.event
        if isinstance(event, OutcomeEvent) and event.ballot == "quest" and player in event.about:
            add("quest", 1.0 if _failed(event) else -1.0, event_id, memory.strength)
        elif isinstance(event, VoteEvent) and event.ballot == "team" and memory.who == player:
            quest = facts.quest_of_vote.get(event_id)
            if quest is not None and quest in held:
                outcome = facts.events[quest].event
                assert isinstance(outcome, OutcomeEvent)
                approved = event.choice == "approve"
                add("votes", 1.0 if approved == _failed(outcome) else -1.0, event_id, memory.strength)
        elif isinstance(event, SayEvent):
            claims = event.claims or ()
            if event.speaker not in (believer, player):
                for claim in claims:
                    value = facts.claim_value(claim, player)
                    if value is not None:
                        add("talk", value, event_id, memory.strength)
            if memory.who == player:
                for claim in claims:
                    if facts.claim_value(claim, believer) == 1.0:
                        add("accusations", 1.0, event_id, memory.strength)
    items.sort(key=lambda item: (item.order, item.kind))
    return items


def weighted_sums(items: Iterable[tuple[str, float, float]]) -> tuple[float, ...]:
    """The features: per kind of EVIDENCE_KINDS, the sum of value x weight over ``(kind, value, weight)``."""
    sums = dict.fromkeys(EVIDENCE_KINDS, 0.0)
    for kind, value, weight in items:
        sums[kind] += value * weight
    return tuple(sums[k] for k in EVIDENCE_KINDS)


def primacy_weights(items: Iterable[Item]) -> list[float]:
    """``1 / (1 + i)`` per item, ``i`` the number of earlier items of its kind (items in log order)."""
    seen: dict[str, int] = {}
    weights = []
    for item in items:
        i = seen.get(item.kind, 0)
        weights.append(1.0 / (1 + i))
        seen[item.kind] = i + 1
    return weights


def decay_weights(items: Iterable[Item], now: int, half_life: float) -> list[float]:
    """``0.5 ** (age / half_life)`` per item, ``age`` the phases from the item's event to ``now``."""
    return [0.5 ** (max(0, now - item.phase) / half_life) for item in items]

