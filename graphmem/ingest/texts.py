"""What a memory says: its template and structured details, from the owner's point of view (SPEC 6.1).

A memory's text is never stored alone: it is ``render(template, details)``, so that recall can lose or import a
detail and re-render the text (a lost ``who`` reads "someone", a lost quote leaves the gist). Templates use the
placeholders ``{who}``, ``{whom}``, ``{where}`` and ``{content}`` of :func:`graphmem.model.details.render`.

Statements heard from someone hold only their content ("Marcus is a traitor."), because the source label of the
prompt ("[Eleanor told you]") carries the teller; the speaker remembers "You told Eleanor: ...".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmem.logs.schema import (
    BanishEvent,
    EndEvent,
    Event,
    MurderEvent,
    ObserveEvent,
    RecruitEvent,
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
    "traitors": "at the traitors' meeting",
}
BALLOT_PLACES = {"banish": "at the round table", "murder": "at the traitors' meeting"}


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
    return " ".join(text.split())


def _ballot_phrase(event: VoteEvent) -> str:
    if event.ballot == "banish":
        return "to banish {whom}"
    if event.ballot == "murder":
        return "to murder {whom}"
    if event.target is not None:
        return f"for {{whom}} in the {event.ballot} vote"
    choice = event.choice or ""
    if event.ballot == "end_game":
        return "to end the game" if choice == "end" else f"to {choice} the game"
    return f"'{choice}' in the {event.ballot} vote"


def details_for(day: int, who: str | None = None, whom: list[str] | None = None, where: str | None = None,
                quote: str | None = None, what: str | None = None) -> tuple[Detail, ...]:
    """Structured details (SPEC 6.1) in a fixed order: who, whom..., where, when (the day), quote, what."""
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


def _say(event: SayEvent, owner: str | None, day: int) -> Wording:
    where = PLACES[event.channel]
    addressees = [] if event.to == "all" else [p for p in event.to if p != event.speaker]
    quote, what = event.text, gist(event.text)
    if owner == event.speaker:
        # {where}, not the place's words: a lost `where` detail must read "somewhere" (SPEC 6.1)
        template = "You told {whom}: {content}" if event.channel == "private" else "You said {where}: {content}"
        if event.channel == "private" and not addressees:
            template = "You said: {content}"
        return Wording(template, details_for(day, None, addressees, where, quote, what))
    if owner is None:
        to = f" to {', '.join(addressees)}" if addressees else ""
        return Wording(f"{{who}} said{to} ({event.channel}): {{content}}",
                       details_for(day, event.speaker, None, where, quote, what))
    return Wording("{content}", details_for(day, event.speaker, None, where, quote, what))


def _vote(event: VoteEvent, owner: str | None, day: int) -> Wording:
    phrase = _ballot_phrase(event)
    where = BALLOT_PLACES.get(event.ballot)
    target = [event.target] if event.target and event.target != owner else []
    if event.target is not None and event.target == owner:
        phrase = phrase.replace("{whom}", "you")
    reason = ": {content}" if event.text else ""
    subject = "You" if owner == event.voter else "{who}"
    who = None if owner == event.voter else event.voter
    what = render(f"{subject} voted {phrase}", details_for(day, who, target))
    return Wording(f"{subject} voted {phrase}{reason}", details_for(day, who, target, where, event.text, what))


def wording(event: Event, owner: str | None, day: int) -> Wording:
    """The template and details of ``event`` as ``owner`` encodes it (``owner=None``: the objective account
    stored on the Event node as ground truth).

    day : int, the day of the event's phase (the ``when`` detail).
    """
    if isinstance(event, SayEvent):
        return _say(event, owner, day)
    if isinstance(event, VoteEvent):
        return _vote(event, owner, day)
    if isinstance(event, MurderEvent):
        if owner == event.victim:
            return Wording("You were murdered by the traitors.", details_for(day))
        return Wording("{whom} was murdered by the traitors.", details_for(day, None, [event.victim]))
    if isinstance(event, BanishEvent):
        votes = f" with {event.votes} votes" if event.votes is not None else ""
        revealed = f" and turned out to be a {event.role_revealed}" if event.role_revealed else ""
        if owner == event.player:
            return Wording(f"You were banished{votes}.", details_for(day, where="at the banishment"))
        return Wording(f"{{whom}} was banished{votes}{revealed}.",
                       details_for(day, None, [event.player], "at the banishment"))
    if isinstance(event, RevealEvent):
        if owner == event.player:
            return Wording(f"You are a {event.role}.", details_for(day))
        return Wording(f"{{whom}} is a {event.role}.", details_for(day, None, [event.player]))
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
    raise ValueError(f"no wording for a {event.kind} event")


def lesson_wording(banished: str, day: int) -> Wording:
    """The outcome rule of SPEC 3.4: a voter learns that voting out a faithful was a mistake."""
    return Wording("Voting out {whom} was a mistake.", details_for(day, None, [banished]))
