"""A conflict in the words a player would use, from the owner's side (docs/prompt.md's conflict line). Pure.

The contradiction job stores one sentence per conflict (``Conflict.text``); the prompt block prints it, in
parentheses, after the first recalled memory the conflict holds. The owner is "you"; players are named (never "he"
or "she": the logs do not say). Days are the days of the memories (a vote's day for a ballot round). Examples:

- a lie caught: "Fletcher claimed to have voted for Ellis on day 2, but you saw Fletcher vote for Sudz.";
  a vote announced and not cast: "Gwendolyn announced a vote for Taylor on day 1, but you saw Gwendolyn vote for
  Riley."; about another's vote: "Casey said Gwendolyn voted for Riley on day 2, but you saw Gwendolyn vote for
  Parker."; about the owner's: "Casey said you voted for Riley on day 1, but you voted for Parker.";
- a stance reversed: "Riley defended Casey on day 1 and accused Casey on day 3.";
- two tellers: "On day 2 Casey told you Riley can be trusted, but Fletcher told you Riley is suspicious.";
- roles: "Ava told you Dan is a traitor, but Ben told you Dan is faithful.";
- a lie about oneself that a reveal exposes: "Eve said on day 2 that they are good, but you know Eve is evil.";
- two accounts of one vote: "You heard two accounts of Dan's vote on day 2: Ava said Dan voted for Eve, Ben said
  Dan voted for Cara.";
- a role the owner knew otherwise (a Werewolf Seer's answer): "Hayley said on day 1 that Mason is a villager, but
  you know Mason is a werewolf."; the owner's own words: "You said on day 1 that Mason is a villager, but you know
  Mason is a werewolf.";
- a claimed save: "Mason claimed to have protected Sam on night 1, but it was you who protected Sam.", "... but
  Sam was murdered that night.";
- a vote for a player already gone: "David announced a vote for Mason on day 2, but Mason was banished on day 1."
"""

from __future__ import annotations

__all__ = ["accounts", "gone_vote", "identity", "known_role", "lie", "name", "report", "reversal", "role_phrase", "save",
           "self_claim_lie", "similar_roles", "who_said"]


def name(player: str | None, owner: str, *, subject: bool = False) -> str:
    """``player``, or "you" ("You" at the start of a sentence) when it is the owner; "someone" when unknown."""
    if player is None:
        return "Someone" if subject else "someone"
    if player == owner:
        return "You" if subject else "you"
    return player


_BARE = frozenset({"faithful", "good", "evil", "mafia"})
"""Role and side words said without an article ("faithful", "mafia"; Avalon's sides "good" and "evil")."""


def role_phrase(role: str, polarity: bool) -> str:
    """"a traitor", "not a traitor", "faithful", "not faithful", "evil", "the seer" -> "a seer"."""
    word = role if role in _BARE else f"a {role}"
    return word if polarity else f"not {word}"


def self_claim_lie(owner: str, speaker: str, claimed: str, polarity: bool, truth: str, day: int | None) -> str:
    """A player's claim of their own role or side that a reveal the owner holds contradicts: "Eve said on day 2
    that they are good, but you know Eve is evil."."""
    when = f" on day {day}" if day is not None else ""
    return (f"{speaker} said{when} that they are {role_phrase(claimed, polarity)}, but you know {speaker} is "
            f"{role_phrase(truth, True)}.")


def known_role(owner: str, speaker: str, subject: str, claimed: str, polarity: bool, truth: str,
               day: int | None) -> str:
    """A claim about ``subject``'s role that a reveal the owner held contradicts: "Hayley said on day 1 that Mason is
    a villager, but you know Mason is a werewolf." (the owner's own words: "You said ...")."""
    when = f" on day {day}" if day is not None else ""
    about = name(subject, owner)
    return (f"{name(speaker, owner, subject=True)} said{when} that {about} is {role_phrase(claimed, polarity)}, but "
            f"you know {about} is {role_phrase(truth, True)}.")


def save(owner: str, speaker: str, saved: str, night: int | None, *, protected: str | None = None,
         murdered: bool = False) -> str:
    """A claimed save (``speaker`` protected ``saved`` on ``night``) that the owner knows is false: the owner is the
    Doctor and protected ``protected`` that night, or saw ``saved`` murdered that night (``murdered``)."""
    who, whom = name(speaker, owner, subject=True), name(saved, owner)
    when = f" on night {night}" if night is not None else ""
    claim = f"You said you protected {whom}{when}" if speaker == owner else f"{who} claimed to have protected {whom}{when}"
    if murdered:
        return f"{claim}, but {whom} was murdered that night."
    if speaker == owner:
        return f"{claim}, but you protected {name(protected or 'someone', owner)}."
    if protected == saved:
        return f"{claim}, but it was you who protected {whom}."
    return f"{claim}, but you protected {name(protected or 'someone', owner)} that night."


def gone_vote(owner: str, speaker: str, subject: str, target: str, round_: int, how: str, day: int | None) -> str:
    """A claim of a vote in ``round_`` for ``target``, who had left the game by then (``how``: "murdered",
    "banished", on ``day``): "David announced a vote for Mason on day 2, but Mason was banished on day 1."."""
    who, tgt = name(speaker, owner, subject=True), name(target, owner)
    claim = f"{who} announced a vote for {tgt}" if speaker == subject else \
        f"{who} said {name(subject, owner)} voted for {tgt}"
    when = f" on day {day}" if day is not None else ""
    return f"{claim} on day {round_}, but {tgt} {'were' if target == owner else 'was'} {how}{when}."


def who_said(speaker: str | None, source: str | None, owner: str) -> str:
    """How the owner came to hear ``speaker``: "Ava told you", "Ava said at the round table", "you overheard Ava
    say", "you said", "someone said"."""
    if speaker is None:
        return "someone said"
    if speaker == owner:
        return "you said"
    if source == "direct_told":
        return f"{speaker} told you"
    if source == "overheard":
        return f"you overheard {speaker} say"
    if source == "group_discuss":
        return f"{speaker} said at the round table"
    return f"{speaker} said"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _vote_for(target: str, owner: str) -> str:
    return f"vote for {name(target, owner)}"


def lie(owner: str, speaker: str, subject: str, target: str, polarity: bool, day: int, seen: str,
        before: bool) -> str:
    """A statement about ``subject``'s vote on ``day`` (for ``target``, or not for it when ``polarity`` is False)
    that the vote the owner saw (``subject`` voted for ``seen``) contradicts; ``before``: the statement came before
    the vote (an announced vote)."""
    said, voter, tgt = name(speaker, owner, subject=True), name(subject, owner), name(target, owner)
    if subject == owner:
        truth = f"but you voted for {name(seen, owner)}"
    else:
        truth = f"but you saw {voter} {_vote_for(seen, owner)}"
    if speaker == subject:
        if before:
            claim = f"announced a vote for {tgt}" if polarity else f"said they would not vote for {tgt}"
        else:
            claim = f"claimed to have voted for {tgt}" if polarity else f"denied voting for {tgt}"
        return f"{said} {claim} on day {day}, {truth}."
    verb = "will vote" if before else "voted"
    claim = f"{voter} {verb} for {tgt}" if polarity else f"{voter} did not vote for {tgt}"
    return f"{said} said {claim} on day {day}, {truth}."


def accounts(owner: str, subject: str, day: int, a: tuple[str | None, str, bool],
             b: tuple[str | None, str, bool]) -> str:
    """Two statements about ``subject``'s vote on ``day`` that cannot both be true; ``a``, ``b``: (speaker,
    target, polarity)."""
    def said(speaker: str | None, target: str, polarity: bool) -> str:
        voter = name(subject, owner)
        what = f"{voter} voted for {name(target, owner)}" if polarity else \
            f"{voter} did not vote for {name(target, owner)}"
        return f"{name(speaker, owner)} said {what}"
    whose = "your" if subject == owner else f"{subject}'s"
    if a[0] is not None and a[0] == b[0]:
        first = name(a[0], owner, subject=True)
        return (f"{first} gave two accounts of {whose} vote on day {day}: first "
                f"{said(*a).split(' said ', 1)[1]}, then {said(*b).split(' said ', 1)[1]}.")
    return f"You heard two accounts of {whose} vote on day {day}: {said(*a)}, {said(*b)}."


def reversal(owner: str, speaker: str, subject: str, first: bool, day_a: int | None, day_b: int | None) -> str:
    """``speaker``'s stance on ``subject`` reversed: ``first`` is the earlier stance (True: trust)."""
    about = name(subject, owner)
    verbs = ("defended", "accused") if first else ("accused", "defended")
    if day_a is None or day_b is None:
        return f"{speaker} {verbs[0]} {about} and later {verbs[1]} {about}."
    if day_a == day_b:
        return f"{speaker} {verbs[0]} {about} and then {verbs[1]} {about}, both on day {day_a}."
    return f"{speaker} {verbs[0]} {about} on day {day_a} and {verbs[1]} {about} on day {day_b}."


def report(owner: str, subject: str, a: tuple[str, bool], b: tuple[str, bool], day: int | None) -> str:
    """Two players told the owner opposite stances on ``subject``: (teller, trust) each, ``a`` first."""
    def told(teller: str, trust: bool) -> str:
        return f"{teller} told you {subject} {'can be trusted' if trust else 'is suspicious'}"
    when = f"On day {day} " if day is not None else ""
    text = f"{told(*a)}, but {told(*b)}."
    return when + text if when else _cap(text)


def identity(owner: str, subject: str, a: tuple[str | None, str | None, str, bool],
             b: tuple[str | None, str | None, str, bool]) -> str:
    """Two role claims about ``subject`` that cannot both be true; ``a``, ``b``: (speaker, source, role,
    polarity)."""
    about = name(subject, owner)

    def claim(speaker: str | None, role: str, polarity: bool) -> str:
        return f"{'they are' if speaker == subject else about + ' is'} {role_phrase(role, polarity)}"
    first = f"{who_said(a[0], a[1], owner)} {claim(a[0], a[2], a[3])}"
    if a[0] is not None and a[0] == b[0]:
        return _cap(f"{first}, and later that {claim(b[0], b[2], b[3])}.")
    return _cap(f"{first}, but {who_said(b[0], b[1], owner)} {claim(b[0], b[2], b[3])}.")


def similar_roles(owner: str, subject: str, a: tuple[str, bool], b: tuple[str, bool]) -> str:
    """Two similar memories that disagree on ``subject``'s role (from their words, not from claims)."""
    about = name(subject, owner)
    return f"You remember hearing that {about} is {role_phrase(*a)}, and also that {about} is {role_phrase(*b)}."
