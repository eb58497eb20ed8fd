"""Who perceives what (docs/perception.md#who-remembers-what): witnesses, source types and what an event is for each of them.

This is the information boundary. Each event yields one :class:`Percept` for each witness and for nobody else:
the log's explicit ``witnesses`` when given, otherwise the kind's default of docs/log-format.md, computed from the living
players at that moment (:class:`graphmem.logs.state.GameState`, the game's facts, which the caller applies each
event to after perceiving it). A faithful therefore never perceives a traitors-only event.

"Traitor" means the traitor side: the roles the header lists in ``traitor_roles`` (default ``["traitor"]``; a
Werewolf log names ``["werewolf"]``). They hear the ``traitors`` channel and the murder votes, and a recruit takes
the recruiter's role.

Source types: the speaker of a ``say`` remembers having said it first-hand; addressees of a private statement are
``direct_told``; the other witnesses of a private statement ``overheard`` it; witnesses of a round-table, public or
traitors' statement got it in ``group_discuss``; everything else is ``first_hand``.

A ``reflect`` (a player's conclusion after the game, about another player or themselves) and a ``belief`` (a
conclusion a player stated during the game: another player's role or side) are perceived by their player alone,
``inferred`` (their own conclusion), situation ``other``; being the owner's own acts they keep their source
(docs/model.md#the-owners-own-statements-and-actions). An event's ``annotations`` (labels added after play) are
never read here: they are nobody's percept.

Mission games (Avalon): a ``propose`` is seen by every living player, and leaves those off the team
``left_off_team``; a ``secret`` vote (a quest card) is seen by its voter alone; an ``outcome`` is public, and a
quest's result (``result`` "success" or "fail") means something different to each side: the hidden side expected it
(``quest_outcome_traitor``), the others fear a failure, most of all those who were on the failed quest
(``quest_failed_on_team``, ``quest_failed``).

Pure: no I/O, no Neo4j, no embeddings.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from graphmem.logs.reader import LoggedEvent
from graphmem.logs.schema import (
    BanishEvent,
    BeliefEvent,
    EndEvent,
    Event,
    MurderEvent,
    ObserveEvent,
    OutcomeEvent,
    ProposeEvent,
    RecruitEvent,
    ReflectEvent,
    RevealEvent,
    SayEvent,
    VoteEvent,
)
from graphmem.logs.state import GameState
from graphmem.model import Situation, SourceType


@dataclass(frozen=True)
class Percept:
    """One witness's perception of one event.

    owner : str, the witness
    source_type : SourceType, how the owner came to know it
    teller : str or None, who gave it (the speaker) for told, overheard and group statements
    situation : Situation, the row of the appraisal table (docs/model.md#the-appraisal-table) that applies to the owner
    involved : bool, the owner is actor, target, addressee or mentioned (docs/model.md#salience)
    voted_out_faithful : bool, a banishment revealed a faithful whom the owner voted out
    """

    owner: str
    source_type: SourceType
    teller: str | None
    situation: Situation
    involved: bool
    voted_out_faithful: bool = False


def actor_of(event: Event) -> str | None:
    """The player who acted: speaker, voter, recruiter, leader of a proposal, the player who reflects or states a
    belief, or the sole murderer when known."""
    if isinstance(event, SayEvent):
        return event.speaker
    if isinstance(event, ProposeEvent):
        return event.leader
    if isinstance(event, VoteEvent):
        return event.voter
    if isinstance(event, RecruitEvent):
        return event.by
    if isinstance(event, MurderEvent) and event.by and len(event.by) == 1:
        return event.by[0]
    if isinstance(event, (ReflectEvent, BeliefEvent)):
        return event.player
    return None


def targets_of(event: Event) -> list[str]:
    """The players an event is done to: addressees, vote target, victim, banished, revealed, recruited, the team
    of a proposal."""
    if isinstance(event, SayEvent):
        return [] if event.to == "all" else list(event.to)
    if isinstance(event, ProposeEvent):
        return list(event.team)
    if isinstance(event, VoteEvent):
        return [event.target] if event.target else []
    if isinstance(event, MurderEvent):
        return [event.victim]
    if isinstance(event, (BanishEvent, RevealEvent, RecruitEvent)):
        return [event.player]
    return []


def about_of(event: Event, players: list[str]) -> list[str]:
    """Players an event is about: its ``about`` list, its targets (not addressees), claim subjects and players
    named in its text (whole-word, case-insensitive), in header order."""
    about = getattr(event, "about", ()) or ()
    named: set[str] = {about} if isinstance(about, str) else set(about)  # a reflection or belief: one player
    if not isinstance(event, SayEvent):
        named.update(targets_of(event))
    for claim in getattr(event, "claims", ()):
        if claim.subject in players:
            named.add(claim.subject)
        if claim.predicate == "voted_for" and claim.object in players:
            named.add(claim.object)
    text = getattr(event, "text", None)
    if isinstance(text, str):
        named.update(mentioned_in(text, players))
    return [p for p in players if p in named]


def mentioned_in(text: str, players: list[str]) -> list[str]:
    """Players whose name occurs in ``text`` as a whole word, ignoring case."""
    found = {m.group(1).casefold() for m in _mention_pattern(tuple(players)).finditer(text)}
    return [p for p in players if p.casefold() in found]


@functools.lru_cache(maxsize=64)
def _mention_pattern(players: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for every name of a game (longest first, each a whole word, any case), compiled once."""
    names = "|".join(re.escape(p) for p in sorted(players, key=len, reverse=True)) or r"(?!x)x"
    return re.compile(rf"(?<!\w)({names})(?!\w)", re.IGNORECASE)


def default_witnesses(event: Event, state: GameState) -> list[str]:
    """The witnesses of docs/log-format.md's table when the log gives none (computed before the event changes the state)."""
    if isinstance(event, SayEvent):
        if event.channel == "private":
            return [event.speaker, *(p for p in event.to if p != event.speaker)]
        if event.channel == "traitors":
            return state.living_traitors()
        return state.living()
    if isinstance(event, ObserveEvent):
        return list(event.observers)
    if isinstance(event, VoteEvent):
        if event.secret:
            return [event.voter]
        return state.living_traitors() if event.ballot == "murder" else state.living()
    if isinstance(event, MurderEvent):
        return [p for p in state.living() if p != event.victim]
    if isinstance(event, RevealEvent):
        return [event.player]
    if isinstance(event, RecruitEvent):
        return [event.player, *(p for p in state.living_traitors() if p != event.player)]
    if isinstance(event, (ReflectEvent, BeliefEvent)):
        return [event.player]
    if isinstance(event, (BanishEvent, EndEvent, ProposeEvent, OutcomeEvent)):
        return state.living()
    return []


def witnesses_of(logged: LoggedEvent, state: GameState) -> list[str]:
    """The event's witnesses: explicit ones as given (order kept, duplicates dropped), else the default."""
    event = logged.event
    explicit = getattr(event, "witnesses", None)
    chosen = list(explicit) if explicit is not None else default_witnesses(event, state)
    return list(dict.fromkeys(chosen))


def _say_source(event: SayEvent, owner: str) -> tuple[SourceType, str | None]:
    if owner == event.speaker:
        return SourceType.FIRST_HAND, None
    if event.channel == "private":
        told = event.to != "all" and owner in event.to
        return (SourceType.DIRECT_TOLD if told else SourceType.OVERHEARD), event.speaker
    return SourceType.GROUP_DISCUSS, event.speaker


def _accuses(event: SayEvent, owner: str, state: GameState) -> bool:
    """A claim that ``owner`` is on the traitor side: a traitor-side role, or the hidden side's name ("Charlie is
    evil")."""
    return any(c.subject == owner and c.polarity and (
        (c.predicate == "role" and state.is_traitor_role(c.object))
        or (c.predicate == "side" and c.object == state.side_names[0])) for c in event.claims)


def _say_situation(event: SayEvent, owner: str, source: SourceType, state: GameState) -> Situation:
    if owner == event.speaker:
        return Situation.OTHER
    if event.channel == "traitors":
        return Situation.TRAITORS_MURDER_DISCUSSION
    if _accuses(event, owner, state):
        return Situation.ACCUSED
    if any(c.predicate in ("role", "side") for c in event.claims):
        return Situation.ROLE_CLAIM
    return {SourceType.DIRECT_TOLD: Situation.PRIVATE_TO_OWNER,
            SourceType.OVERHEARD: Situation.OVERHEARD}.get(source, Situation.ROUNDTABLE)


MISSION_RESULTS = ("success", "fail")
"""The ``result`` of an ``outcome`` that ends a quest (any other result, e.g. a team vote's "approved", is table
business)."""


def on_the_quest(event: OutcomeEvent, owner: str, state: GameState) -> bool:
    """Whether ``owner`` took part in what ``event`` is the outcome of: they voted on its ``ballot`` since that
    ballot's previous outcome (a quest card), or, without such votes, the outcome is ``about`` them."""
    voters = state.ballot_voters.get(event.ballot, []) if event.ballot is not None else []
    return owner in voters if voters else owner in event.about


def _outcome_situation(event: OutcomeEvent, owner: str, state: GameState) -> Situation:
    if event.result not in MISSION_RESULTS:
        return Situation.ROUNDTABLE
    if state.is_traitor(owner):
        return Situation.QUEST_OUTCOME_TRAITOR
    if event.result == "fail":
        return Situation.QUEST_FAILED_ON_TEAM if on_the_quest(event, owner, state) else Situation.QUEST_FAILED
    return Situation.ROUNDTABLE


def _situation(event: Event, owner: str, source: SourceType, state: GameState) -> tuple[Situation, bool]:
    """(situation, voted_out_faithful) of ``event`` for ``owner``."""
    if isinstance(event, SayEvent):
        return _say_situation(event, owner, source, state), False
    if isinstance(event, VoteEvent):
        if event.ballot == "murder":
            return Situation.TRAITORS_MURDER_DISCUSSION, False
        if event.target == owner and event.voter != owner:
            return Situation.ACCUSED, False
        return (Situation.OTHER if event.voter == owner else Situation.ROUNDTABLE), False
    if isinstance(event, MurderEvent):
        traitor = state.is_traitor(owner)
        return (Situation.MURDER_REVEALED_TRAITOR if traitor else Situation.MURDER_REVEALED_FAITHFUL), False
    if isinstance(event, BanishEvent):
        if event.player == owner:
            return Situation.ACCUSED, False
        if event.role_revealed is None:
            return Situation.ROUNDTABLE, False
        regret = not state.is_traitor_role(event.role_revealed) and state.banish_votes.get(owner) == event.player
        return Situation.BANISHMENT_REVEAL, regret
    if isinstance(event, RevealEvent):
        return Situation.ROLE_CLAIM, False
    if isinstance(event, RecruitEvent):
        return (Situation.RECRUITED if event.player == owner else Situation.OTHER), False
    if isinstance(event, ProposeEvent):
        if owner == event.leader:
            return Situation.OTHER, False
        return (Situation.ROUNDTABLE if owner in event.team else Situation.LEFT_OFF_TEAM), False
    if isinstance(event, OutcomeEvent):
        return _outcome_situation(event, owner, state), False
    return Situation.OTHER, False


def perceive(logged: LoggedEvent, state: GameState) -> list[Percept]:
    """Every witness's percept of one perceivable event (say, observe, vote, murder, banish, reveal, recruit, end,
    propose, outcome, reflect, belief).

    Call before ``state.apply`` for the same event: witnesses and situations are judged on the state just before it.
    """
    event = logged.event
    players = list(state.roles)
    actor = actor_of(event)
    targets = targets_of(event)
    about = about_of(event, players)
    percepts = []
    for owner in witnesses_of(logged, state):
        if isinstance(event, SayEvent):
            source, teller = _say_source(event, owner)
        elif isinstance(event, (ReflectEvent, BeliefEvent)):
            source, teller = SourceType.INFERRED, None  # the owner's own conclusion
        else:
            source, teller = SourceType.FIRST_HAND, None
        situation, regret = _situation(event, owner, source, state)
        involved = owner == actor or owner in targets or owner in about
        percepts.append(Percept(owner, source, teller, situation, involved, regret))
    return percepts
