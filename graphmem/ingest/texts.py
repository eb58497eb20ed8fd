"""What a memory says: its template and structured details, from the owner's point of view
(docs/model.md#details-and-how-they-render).

A memory's text is never stored alone: it is ``render(template, details)``, so that recall can lose or import a
detail and re-render the text (a lost ``who`` reads "someone", a lost quote leaves the gist). Templates use the
placeholders ``{who}``, ``{whom}``, ``{where}`` and ``{content}`` of :func:`graphmem.model.details.render`.

Statements heard from someone hold only their content ("Marcus is a traitor."), because the source label of the
prompt ("[Eleanor told you]") carries the teller; the speaker remembers "You told Eleanor: ...".

Roles read "a traitor", "an assassin", and bare when capitalised (a named character: "Diana is Merlin") or when the
word is a side's name rather than a role ("Charlie is evil"). Mission games: "Charlie proposed a team of Alice and
Bob, leaving you off", "You voted to approve the team of Alice and Charlie", "You played a fail card on the quest
with Alice", and an outcome's own words (unquoted: they are the game's, not a player's) with the owner's name read as
"you": "Quest 1 (you, Dana) failed with 1 fail card." A reflection keeps the
player's words: "You concluded about Charlie after the game: "Charlie blended in well ..."". A belief stated during
the game reads "You concluded that player-5 is Merlin." (its reasons, when given, follow as a quote), and "You were
undecided about player-5." when the player withdrew a conclusion.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

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
from graphmem.model.details import Detail, render

GIST_CHARS = 160
"""The longest gist (the ``what`` detail) in characters: the first sentence, cut at a word boundary."""

PLACES = {
    "private": "in a private conversation",
    "public": "in front of everyone",
    "roundtable": "at the round table",
    "traitors": "at the {killers}' meeting",
}
"""Where a statement of each channel is made; the hidden side's meeting is named by :func:`place`."""
BALLOT_PLACES = {"banish": PLACES["roundtable"], "murder": PLACES["traitors"]}
"""Where each ballot is cast (the other ballots have no place)."""


def place(where: str | None, killers: str) -> str | None:
    """A place of :data:`PLACES` or :data:`BALLOT_PLACES` in the game's own words: the hidden side's meeting is "at
    the traitors' meeting", "at the mafia side's meeting" (Mafia), "at the evil side's meeting" (Avalon)."""
    if where is None or "{killers}" not in where:
        return where
    return where.format(killers=killers) if killers.endswith("s") else f"at the {killers} side's meeting"


@dataclass(frozen=True)
class Wording:
    """A memory's template and details. ``text`` is the rendering with every detail kept."""

    template: str
    details: tuple[Detail, ...]

    @property
    def text(self) -> str:
        """The full text (nothing lost yet)."""
        return render(self.template, self.details)


def gist(text: str, limit: int = GIST_CHARS) -> str:
    """The first sentence of ``text`` (whitespace collapsed), at most ``limit`` characters, cut at a word."""
    flat = " ".join(text.split())
    match = re.match(r"^(.+?[.!?])(\s|$)", flat)
    first = match.group(1) if match else flat
    if len(first) <= limit:
        return first
    cut = first[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "..."


def _quoted(text: str) -> str:
    """A statement's words as said: only the whitespace around them goes. Its line breaks (newlines, U+2028, U+2029,
    U+0085) stay in the memory's text, which is the full text as the owner holds it (docs/graph-model.md); the
    prompt block renders each memory on one line (docs/prompt.md)."""
    return text.strip()


TARGET_BALLOTS = {"banish": "to banish {whom}", "murder": "to murder {whom}",
                  "assassinate": "to assassinate {whom}", "protect": "to protect {whom}"}
"""How a vote on a ballot with a target reads ("Riley voted to banish Casey", a Werewolf Doctor's "You voted to
protect Mason"); other ballots: "for X in the B vote"."""


def role_phrase(role: str, roles: Collection[str] | None = None) -> str:
    """A role as it follows "is"/"are": "a traitor", "an assassin"; bare when capitalised ("Merlin") or when
    ``roles`` (the game's roles) is given and does not hold it (a side's name: "evil")."""
    if role[:1].isupper() or (roles is not None and role not in roles):
        return role
    return f"{'an' if role[:1].lower() in 'aeiou' else 'a'} {role}"


def _ballot_phrase(event: VoteEvent) -> str:
    if event.ballot in TARGET_BALLOTS:
        return TARGET_BALLOTS[event.ballot]
    if event.target is not None:
        return f"for {{whom}} in the {event.ballot} vote"
    choice = event.choice or ""
    if event.ballot == "end_game":
        return "to end the game" if choice == "end" else f"to {choice} the game"
    if event.ballot == "team":
        return f"to {choice} the team of {{whom}}" if choice in ("approve", "reject") else \
            f"'{choice}' on the team of {{whom}}"
    return f"'{choice}' in the {event.ballot} vote"


def details_for(day: int, who: str | None = None, whom: list[str] | None = None, where: str | None = None,
                quote: str | None = None, what: str | None = None) -> tuple[Detail, ...]:
    """Structured details (docs/model.md#details-and-how-they-render) in a fixed order: who, whom..., where, when (the
    day), quote, what."""
    details = []
    if who:
        details.append(Detail("who", who))
    details.extend(Detail("whom", name) for name in (whom or []))
    if where:
        details.append(Detail("where", where))
    details.append(Detail("when", str(day)))
    if quote:
        details.append(Detail("quote", _quoted(quote)))
    if what:
        details.append(Detail("what", what))
    return tuple(details)


def _say(event: SayEvent, owner: str | None, day: int, killers: str) -> Wording:
    where = place(PLACES[event.channel], killers)
    addressees = [] if event.to == "all" else [p for p in event.to if p != event.speaker]
    quote, what = event.text, gist(event.text)
    if owner == event.speaker:
        # {where}, not the place's words: a lost `where` detail must read "somewhere"
        # (docs/model.md#details-and-how-they-render)
        template = "You told {whom}: {content}" if event.channel == "private" else "You said {where}: {content}"
        if event.channel == "private" and not addressees:
            template = "You said: {content}"
        return Wording(template, details_for(day, None, addressees, where, quote, what))
    if owner is None:
        to = f" to {', '.join(addressees)}" if addressees else ""
        return Wording(f"{{who}} said{to} ({event.channel}): {{content}}",
                       details_for(day, event.speaker, None, where, quote, what))
    return Wording("{content}", details_for(day, event.speaker, None, where, quote, what))


def owner_as_you(words: str, owner: str) -> str:
    """The game's own ``words`` (an outcome's) as ``owner`` holds them: their name read as "you", "NAME's" as "your"
    ("Your party (you, player-6) was rejected, 3 votes to 3." for player-5), as every other memory of theirs says
    "you" ("player-5 proposed a team of you, ..."). Only the whole name counts: "player-1" is not in "player-10".
    A name that starts the words is capitalised ("You", "Your")."""
    def you(m: re.Match[str]) -> str:
        word = "your" if m.group(1) else "you"
        return word.capitalize() if m.start() == 0 else word

    return re.sub(rf"(?<![\w-]){re.escape(owner)}(?![\w-])('s)?", you, words)


def _team(team: Sequence[str], owner: str | None) -> tuple[str, list[str]]:
    """A team as ``{whom}`` reads it for ``owner``: ("you and {whom}", the other) or ("you, {whom}", the others:
    "you, Alice and Bob"), ("you", []), or ("{whom}", all)."""
    others = [p for p in team if p != owner]
    if len(others) < len(team):
        return ("you, {whom}" if len(others) > 1 else "you and {whom}" if others else "you"), others
    return "{whom}", others


def _vote(event: VoteEvent, owner: str | None, day: int, team: Sequence[str], killers: str) -> Wording:
    phrase = _ballot_phrase(event)
    where = place(BALLOT_PLACES.get(event.ballot), killers)
    target = [event.target] if event.target and event.target != owner else []
    if event.target is not None and event.target == owner:
        phrase = phrase.replace("{whom}", "you")
    subject = "You" if owner == event.voter else "{who}"
    who = None if owner == event.voter else event.voter
    if event.target is None and "{whom}" in phrase:  # a team vote: the team proposed
        named, target = _team(team, owner)
        phrase = phrase.replace("{whom}", named) if team else phrase.replace(" of {whom}", "")
    if event.ballot == "quest" and event.target is None and event.choice is not None:
        named, target = _team([p for p in team if p != event.voter], owner)
        phrase = f"played a {event.choice} card on the quest" + (f" with {named}" if target else "")
        reason = ": {content}" if event.text else ""
        what = render(f"{subject} {phrase}", details_for(day, who, target))
        return Wording(f"{subject} {phrase}{reason}", details_for(day, who, target, where, event.text, what))
    reason = ": {content}" if event.text else ""
    what = render(f"{subject} voted {phrase}", details_for(day, who, target))
    return Wording(f"{subject} voted {phrase}{reason}", details_for(day, who, target, where, event.text, what))


def _propose(event: ProposeEvent, owner: str | None, day: int) -> Wording:
    named, others = _team(event.team, owner)
    reason = ": {content}" if event.text else ""
    if owner == event.leader:
        named = named.replace("you", "yourself", 1)  # "yourself and Dana", "yourself, Alice and Bob"
        base, who = f"You proposed a team of {named}", None
    else:
        left_off = "" if owner is None or owner in event.team else ", leaving you off"
        base, who = f"{{who}} proposed a team of {named}{left_off}", event.leader
    what = render(base, details_for(day, who, others))
    return Wording(base + reason, details_for(day, who, others, None, event.text, what))


def _reflect(event: ReflectEvent, owner: str | None, day: int, ended: bool) -> Wording:
    """A reflection in the player's own words: "You concluded about Charlie after the game: "..."", "You concluded
    about yourself after the game: "..."" (before the game's end without "after the game")."""
    subject, who = ("You", None) if owner == event.player else ("{who}", event.player)
    whom = "{whom}" if event.about is not None else "yourself" if who is None else "themselves"
    after = " after the game" if ended else ""
    return Wording(f"{subject} concluded about {whom}{after}: {{content}}",
                   details_for(day, who, [event.about] if event.about is not None else None, None, event.text,
                               gist(event.text)))


UNDECIDED = "undecided"
"""The ``belief`` that withdraws a conclusion (Avalon-NLU's drop-down default): "You were undecided about
player-5."."""


def belief_phrase(belief: str, roles: Collection[str] | None = None) -> str:
    """A belief's role or side as it follows "is", named as the game names it: a word that is one of ``roles``
    (the game's roles) but for case, or the last word of one ("merlin" -> "Merlin", "servant" -> "a loyal
    servant", "assassin" -> "an assassin"), reads as that role (:func:`role_phrase`); any other word as written
    ("evil", "good": a side's name)."""
    for role in roles or ():
        if role.casefold() == belief.casefold():
            return role_phrase(role, roles)
    for role in roles or ():
        if role.casefold().split()[-1:] == [belief.casefold()]:
            return role_phrase(role, roles)
    return role_phrase(belief, roles)


def _belief(event: BeliefEvent, owner: str | None, day: int, roles: Collection[str] | None) -> Wording:
    """A belief stated during the game: "You concluded that {whom} is Merlin." ("{who} concluded ..." for anyone
    else, the ground truth), "You were undecided about {whom}." for ``undecided``; its reasons, when given, as a
    quote after a colon."""
    subject, who = ("You", None) if owner == event.player else ("{who}", event.player)
    if event.belief.casefold() == UNDECIDED:
        base = f"{subject} {'were' if who is None else 'was'} undecided about {{whom}}"
    else:
        base = f"{subject} concluded that {{whom}} is {belief_phrase(event.belief, roles)}"
    what = render(base, details_for(day, who, [event.about]))
    if event.text is None:
        return Wording(base + ".", details_for(day, who, [event.about], what=what))
    return Wording(base + ": {content}", details_for(day, who, [event.about], None, event.text, what))


def wording(event: Event, owner: str | None, day: int, *, team: Sequence[str] = (),
            roles: Collection[str] | None = None, killers: str = "traitors", ended: bool = False) -> Wording:
    """The template and details of ``event`` as ``owner`` encodes it (``owner=None``: the objective account
    stored on the Event node as ground truth).

    day : int, the day of the event's phase (the ``when`` detail); team : the team last proposed (the team a
    ``team`` or ``quest`` vote is about, :attr:`graphmem.logs.state.GameState.proposal`); roles : the game's roles
    (a revealed word that is none of them is a side's name, read bare: "Charlie is evil"); killers : who murders
    ("traitors"; "mafia" in a Mafia game: "Brook was murdered by the mafia"; their meetings are
    :func:`place`); ended : the game has ended (a reflection then reads "after the game").
    """
    if isinstance(event, SayEvent):
        return _say(event, owner, day, killers)
    if isinstance(event, VoteEvent):
        return _vote(event, owner, day, team, killers)
    if isinstance(event, ProposeEvent):
        return _propose(event, owner, day)
    if isinstance(event, OutcomeEvent):
        what = " ".join(event.what.split())
        return Wording("{content}", details_for(day, None, [p for p in event.about if p != owner],
                                                what=owner_as_you(what, owner) if owner is not None else what))
    if isinstance(event, MurderEvent):
        if owner == event.victim:
            return Wording(f"You were murdered by the {killers}.", details_for(day))
        return Wording(f"{{whom}} was murdered by the {killers}.", details_for(day, None, [event.victim]))
    if isinstance(event, BanishEvent):
        votes = f" with {event.votes} votes" if event.votes is not None else ""
        revealed = (f" and turned out to be {role_phrase(event.role_revealed, roles)}" if event.role_revealed
                    else "")
        if owner == event.player:
            return Wording(f"You were banished{votes}.", details_for(day, where="at the banishment"))
        return Wording(f"{{whom}} was banished{votes}{revealed}.",
                       details_for(day, None, [event.player], "at the banishment"))
    if isinstance(event, RevealEvent):
        if owner == event.player:
            return Wording(f"You are {role_phrase(event.role, roles)}.", details_for(day))
        return Wording(f"{{whom}} is {role_phrase(event.role, roles)}.", details_for(day, None, [event.player]))
    if isinstance(event, RecruitEvent):
        if owner == event.player:
            return Wording("{who} recruited you as a traitor.", details_for(day, event.by))
        if owner == event.by:
            return Wording("You recruited {whom} as a traitor.", details_for(day, None, [event.player]))
        return Wording("{who} recruited {whom} as a traitor.", details_for(day, event.by, [event.player]))
    if isinstance(event, ObserveEvent):
        return Wording("{content}", details_for(day, None, None, event.location, event.text, gist(event.text)))
    if isinstance(event, EndEvent):
        extra = " {content}" if event.text else ""
        return Wording(f"The game ended: the {event.winner} won.{extra}",
                       details_for(day, quote=event.text, what=gist(event.text) if event.text else None))
    if isinstance(event, ReflectEvent):
        return _reflect(event, owner, day, ended)
    if isinstance(event, BeliefEvent):
        return _belief(event, owner, day, roles)
    raise ValueError(f"no wording for a {event.kind} event")


def lesson_wording(banished: str, day: int) -> Wording:
    """The outcome rule of docs/model.md#encoding-strength-and-stability: a voter learns that voting out a faithful was
    a mistake."""
    return Wording("Voting out {whom} was a mistake.", details_for(day, None, [banished]))
