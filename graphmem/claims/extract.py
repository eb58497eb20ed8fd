"""A small rule-based claim extractor (docs/perception.md#claims): statements in, claims out. Precision over recall.

Recognised, at the start of a clause only (see below):

- role claims about the speaker: "I'm a faithful", "I am Faithful", "I'm not a traitor", "I'm no traitor"
  -> ``{speaker, role, faithful|traitor, polarity}``;
- role claims about a named player: "X is a traitor", "X was faithful", "X isn't a traitor",
  "X is not one of the traitors" -> ``{X, role, ..., polarity}``;
- the speaker's votes: "I voted for Y", "I'm voting for Y", "I'm voting to eliminate Y", "I vote Y out",
  "I'm going to vote for Y", "My vote goes to Y"; negated: "I didn't vote for Y", "I'm not voting for Y"
  -> ``{speaker, voted_for, Y, polarity}``;
- a named player's past vote: "X voted for Y", "X voted to eliminate Y", "X didn't vote for Y".

Names are matched ignoring case against the game's players and returned as the header spells them; role words
are the game's (default "traitor" and "faithful"; plurals accepted), returned singular as the game spells them
("Merlin" in an Avalon game whose header says "Merlin"). A game's side names that are no role ("good" and "evil" in
Avalon, the header's ``side_names``) give ``side`` claims the same way: "I am good", "Charlie is evil" ->
``{speaker|Charlie, side, good|evil, polarity}``.

Conservative by construction:

- the text is split into sentences and clauses (at , ; : ( ) dashes and "and", "but", "so", "because",
  "since", "although", "though", "plus"); a claim must start its clause, after optional discourse markers
  ("honestly", "trust me", "just a heads up") or assertive lead-ins ("I think", "I believe", "I know",
  "I'm sure", "I can tell you", "I'm here to tell you", "I promise", "I swear", each optionally followed by "that");
- questions (a sentence ending in "?") give no claim, nor does the part of a sentence from the clause holding a
  conditional or hypothetical word ("if", "unless", "whether", "suppose", "assuming", "imagine", "pretend",
  "what if", "in case"), or possibilities weighed ("which", "theory", "world", "scenario", "possibility",
  "hypothesis") on: "Taylor was a traitor, but we don't know if ..." keeps its first clause;
- role claims must end their clause (allowing "too", "here", "myself", "for sure"): "I'm a traitor hunter" and
  "I am faithful to the group" give none;
- reported speech in double quotes is removed first (it is someone else's claim);
- pronouns and "you" are never resolved in role and vote claims.

Stances (``suspects``, ``trusts``) come after them, from :mod:`graphmem.claims.stances` (which does resolve "you" and
pronouns, its own way); a player given a role or side claim in the statement gets no stance beside it.

Vote claims name the ballot round they are about (docs/perception.md#claims;
:class:`~graphmem.logs.ballots.VoteRounds`, :class:`~graphmem.logs.ballots.BallotRounds`): a round is the day of its
banish ballot. Given the rounds at the statement, a past vote ("X voted for Y", "I voted for Y") is about the latest
ballot before it (:meth:`VoteRounds.past`), a vote to come ("I'm voting for Y") and the speaker's
own vote said at the round table before the round ended are about the coming one.

Encoding runs the extractor too (:func:`derived_claims`): a statement of a log written natively or sent live that
has no ``claims`` key gets the claims of its text; ``"claims": []`` means "none" and is kept as given; every
``voted_for`` claim then gets its round (:func:`with_rounds`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from graphmem.claims.stances import StanceExtractor, sentences
from graphmem.logs.ballots import VoteRounds
from graphmem.logs.schema import Claim, Event, GameHeader, SayEvent, VoteEvent

DEFAULT_ROLES: tuple[str, ...] = ("traitor", "faithful")
"""Role words of The Traitors."""

_CLAUSE = re.compile(r"\s*[,;:()\u2014\u2013]\s*|\s+-+\s+|\s+(?:and|but|so|because|since|although|though|plus)\s+",
                     re.IGNORECASE)
_HYPOTHETICAL = re.compile(r"\b(?:if|unless|whether|suppose|supposing|assuming|imagine|pretend|hypothetically|"
                           r"what if|in case|which|whichever|theory|theories|worlds?|scenarios?|"
                           r"possibilit(?:y|ies)|hypothes[ie]s)\b", re.IGNORECASE)
"""Where a sentence stops asserting: a conditional, or the possibilities a player weighs ("the theory that Bob and
Charlie are the evil pair and Alice is good", "two consistent worlds: (1) Alice is evil plus ..., or (2) Alice is
good", "which single player among Alice, Bob, and Eve is good": Avalon's reasoning about who could be evil)."""
_LEAD = re.compile(
    r"^(?:(?:and|but|so|also|well|look|listen|honestly|frankly|okay|ok|alright|yes|yeah|now|again|"
    r"to be clear|just to be clear|for the record|to be honest|trust me|believe me|just a heads up|heads up)\b"
    r"|I (?:really |honestly |truly |genuinely )?(?:think|believe|know)\b"
    r"|I(?:'m| am) (?:sure|certain|convinced|positive)\b"
    r"|I can (?:tell you|confirm|assure you)\b"
    r"|I(?:'m| am) here to tell you\b"
    r"|I (?:promise|swear|assure)(?: you)?\b"
    r"|(?:let me be clear|I want you to know|I want to be clear)\b"
    r")(?:\s+that\b)?[\s,!]*",
    re.IGNORECASE,
)
_ADVERBS = r"(?:(?:definitely|actually|clearly|really|truly|honestly|absolutely|certainly|obviously|100%)\s+)*"
_ARTICLE = r"(?:(?:a|an|the|one of the)\s+)?(?:(?:loyal|true|real|genuine|fellow)\s+)?"
_TAIL = r"(?:\s+(?:too|here|myself|for sure|through and through))?[\s.!]*$"
_VOTE_PREP = r"(?:for|to eliminate|to banish|to get rid of|against)"
_EARLIER = re.compile(r"\b(?:yesterday|last\s+(?:round|time|vote|night|day)|(?:the\s+)?previous\s+(?:round|vote|day)|"
                      r"earlier|before|first\s+round|on\s+day\s+\d+|the\s+other\s+day|back\s+then)\b", re.IGNORECASE)
"""Words that put one's own vote in an earlier round: "I voted for Bob yesterday" is not today's vote."""


class ClaimExtractor:
    """Claim extraction for one game's players and role words (compiled once; reuse it for many texts).

    players : iterable of str, the game's player names (as in the header)
    roles : iterable of str, role words (default "traitor", "faithful"), claimed as ``role``
    sides : iterable of str, side names that are no role (e.g. "good", "evil"), claimed as ``side``
    """

    def __init__(self, players: Iterable[str], roles: Iterable[str] = DEFAULT_ROLES, sides: Iterable[str] = ()) -> None:
        names = sorted(set(players), key=len, reverse=True)
        self._canonical = {n.casefold(): n for n in names}
        self._roles: dict[str, str] = {}
        for r in roles:
            self._roles.setdefault(r.casefold(), r)
        self._sides: dict[str, str] = {}
        for side in sides:
            if side.casefold() not in self._roles:
                self._sides.setdefault(side.casefold(), side)
        words = {**self._sides, **self._roles}
        name = "|".join(re.escape(n) for n in names) or r"(?!x)x"
        role = "|".join(re.escape(r) for r in sorted(words, key=len, reverse=True)) or r"(?!x)x"
        obj = rf"(?P<obj>{name})(?!\w|'s\b)"
        flags = re.IGNORECASE
        self._self_role = re.compile(
            rf"^I(?:'m| am|m)\s+{_ADVERBS}(?P<neg>not\s+|no\s+)?{_ADVERBS}{_ARTICLE}(?P<role>{role})s?{_TAIL}", flags)
        self._other_role = re.compile(
            rf"^(?P<subj>{name})\s+(?P<verb>is|was|isn't|wasn't|is not|was not)\s+{_ADVERBS}(?P<neg>not\s+)?"
            rf"{_ARTICLE}(?P<role>{role})s?{_TAIL}", flags)
        self._self_vote = re.compile(
            rf"^(?:I(?P<aux>'m| am|'ve| have|'ll| will| did)?\s+(?:(?:going to|gonna|also|still|definitely|now)\s+)*"
            rf"(?P<verb>vote|voted|voting|cast my vote|casting my vote)\s+(?:{_VOTE_PREP}\s+)?"
            rf"|my vote (?:goes to|is going to|will go to|is for|is on)\s+){obj}", flags)
        self._self_vote_neg = re.compile(
            rf"^(?:I\s+(?P<aux>didn't|did not|don't|do not|won't|will not|wouldn't|would not|never)\s+(?:vote|voted)"
            rf"|I(?:'m| am)\s+not\s+(?:going to vote|gonna vote|voting))\s+{_VOTE_PREP}\s+{obj}", flags)
        self._other_vote = re.compile(
            rf"^(?P<subj>{name})\s+(?P<neg>didn't vote|did not vote|voted|has voted|had voted)\s+{_VOTE_PREP}\s+{obj}",
            flags)

        self._stances = StanceExtractor(names)

    def _name(self, text: str) -> str:
        return self._canonical[text.casefold()]

    def _role(self, subject: str, word: str, polarity: bool) -> Claim:
        """A ``role`` claim, or a ``side`` claim when ``word`` is a side name."""
        key = word.casefold()
        if key in self._roles:
            return Claim(subject=subject, predicate="role", object=self._roles[key], polarity=polarity)
        return Claim(subject=subject, predicate="side", object=self._sides[key], polarity=polarity)

    def extract(self, text: str, speaker: str | None = None, *, rounds: VoteRounds | None = None,
                stances: bool = True, addressee: str | None = None) -> list[Claim]:
        """The claims of one statement, in order of appearance, without duplicates: role, side and vote claims,
        then the speaker's stances (:mod:`graphmem.claims.stances`).

        text : str, the statement
        speaker : str or None, who said it (the subject of "I ..." claims and of stances; None: those are skipped)
        rounds : VoteRounds or None, the ballot rounds at the statement: each ``voted_for`` claim gets the round it
            is about (a past vote: :meth:`VoteRounds.past`; "I'm voting for", "I will vote for": the coming one).
            None: no round (the encoder fills it in as "the latest ballot before the statement")
        stances : bool, also extract ``suspects``/``trusts`` stances (False for the traitors' murder talk)
        addressee : str or None, the one player the statement is told to ("you" in a stance means them)
        """
        claims = self._claims(text, speaker, rounds)
        if stances:
            # A role or side claim about a player says more than a stance on them (and the contradiction job reads
            # it as one): "Zoë is a traitor", "Diana is evil" give the role or side claim only.
            named = {c.subject for c in claims if c.predicate in ("role", "side")}
            claims += [c for c in self._stances.extract(text, speaker, addressee) if c.object not in named]
        return claims

    def _claims(self, text: str, speaker: str | None, rounds: VoteRounds | None) -> list[Claim]:
        claims: list[Claim] = []
        for sentence in sentences(text):
            sentence = sentence.strip()
            if not sentence or re.sub(r"[^\w?.!]+$", "", sentence).endswith("?"):
                continue
            hypothetical = _HYPOTHETICAL.search(sentence)
            cut = hypothetical.start() if hypothetical else len(sentence)
            for clause, end in _clauses(sentence):
                if end > cut:
                    break  # this clause and the rest of the sentence are hypothetical
                claim = self._clause_claim(self._strip_lead(clause), speaker, rounds)
                if claim is not None and claim not in claims:
                    claims.append(claim)
        return claims

    @staticmethod
    def _strip_lead(clause: str) -> str:
        clause = " ".join(clause.split()).lstrip("\"'*-\u2026. ")
        while True:
            stripped = _LEAD.sub("", clause, count=1)
            if stripped == clause:
                return clause
            clause = stripped

    def _clause_claim(self, clause: str, speaker: str | None, rounds: VoteRounds | None) -> Claim | None:
        if speaker is not None:
            if m := self._self_role.match(clause):
                return self._role(speaker, m["role"], not m["neg"])
            earlier = bool(_EARLIER.search(clause))
            if m := self._self_vote_neg.match(clause):
                past = (m["aux"] or "").casefold() in ("didn't", "did not", "never")
                return _vote(speaker, self._name(m["obj"]), False, past, rounds, own=not earlier)
            if m := self._self_vote.match(clause):
                past = (m["verb"] or "").casefold() == "voted" or (m["aux"] or "").strip().casefold() in (
                    "'ve", "have", "did")
                return _vote(speaker, self._name(m["obj"]), True, past, rounds, own=not earlier)
        if m := self._other_role.match(clause):
            negated = bool(m["neg"]) != ("n't" in m["verb"] or " not" in m["verb"].casefold())
            return self._role(self._name(m["subj"]), m["role"], not negated)
        if m := self._other_vote.match(clause):
            return _vote(self._name(m["subj"]), self._name(m["obj"]), "not" not in m["neg"] and "n't" not in m["neg"],
                         True, rounds)
        return None


def _vote(subject: str, target: str, polarity: bool, past: bool, rounds: VoteRounds | None, *,
          own: bool = False) -> Claim:
    """A ``voted_for`` claim with the round it is about (none without ``rounds``): the speaker's own vote while a
    ballot is being held is that ballot's, whatever the tense ("I voted for Fletcher because ..." said at the round
    table just before voting); otherwise a past vote is :meth:`VoteRounds.past`'s and a vote to come the coming
    round's."""
    if rounds is None:
        round_ = None
    elif own and rounds.voting or not past:
        round_ = rounds.coming
    else:
        round_ = rounds.past(subject, target)
    return Claim(subject=subject, predicate="voted_for", object=target, polarity=polarity, round=round_)


def _clauses(sentence: str) -> list[tuple[str, int]]:
    """The clauses of a sentence with the position where each ends."""
    out: list[tuple[str, int]] = []
    start = 0
    for m in _CLAUSE.finditer(sentence):
        out.append((sentence[start:m.start()], m.start()))
        start = m.end()
    out.append((sentence[start:], len(sentence)))
    return out


def extract_claims(text: str, *, speaker: str | None, players: Sequence[str] | Iterable[str],
                   roles: Iterable[str] = DEFAULT_ROLES, sides: Iterable[str] = ()) -> list[Claim]:
    """The claims of one statement (see the module docstring for what is recognised).

    text : str, the statement
    speaker : str or None, the speaker (subject of "I ..." claims)
    players : the game's player names; roles : the game's role words; sides : side names that are no role

    Returns a list of Claim (subject and voted_for objects spelled as in ``players``). For many statements of one
    game, build one :class:`ClaimExtractor` and call :meth:`ClaimExtractor.extract`.
    """
    return ClaimExtractor(players, roles, sides).extract(text, speaker)


def game_roles(header: GameHeader) -> tuple[str, ...]:
    """The role words of a game: :data:`DEFAULT_ROLES` and then the header's roles, each once ignoring case
    (a Traitors game gives exactly ``("traitor", "faithful")``; a Werewolf game adds "werewolf", "seer", ...)."""
    roles: dict[str, str] = {}
    for role in (*DEFAULT_ROLES, *(p.role for p in header.players)):
        roles.setdefault(role.casefold(), role)
    return tuple(roles.values())


def claim_extractor_for(header: GameHeader) -> ClaimExtractor | None:
    """The extractor that derives the claims a game's statements do not give (see :func:`derived_claims`), or None
    when the log was produced by an importer (``header.imported_from`` set): an importer derives the claims of
    its logs itself (the traitors-plomp importer runs this extractor on statements and murder suggestions and
    deliberately not on murder or end-game vote reasons), so its output is stored exactly as converted."""
    if header.imported_from is not None:
        return None
    return ClaimExtractor(header.player_names, game_roles(header),
                          (header.side_names.traitor, header.side_names.faithful))


def statement_options(event: Event) -> tuple[str, bool, str | None] | None:
    """(text, stances, addressee) of the statement an event makes, or None when it makes none: a ``say`` (stances
    unless on the ``traitors`` channel, whose murder talk states reasons to kill, not suspicions; the addressee when
    it is told privately to one other player) or a ``vote`` with a reason ``text`` (stances unless a murder vote)."""
    if isinstance(event, SayEvent):
        told = [p for p in event.to if p != event.speaker] if event.to != "all" else []
        return event.text, event.channel != "traitors", told[0] if len(told) == 1 else None
    if isinstance(event, VoteEvent) and event.text is not None:
        return event.text, event.ballot != "murder", None
    return None


def derived_claims(event: Event, extractor: ClaimExtractor, rounds: VoteRounds | None = None) -> tuple[Claim, ...] | None:
    """The claims derived from ``event`` for an event that has no ``claims`` key, or None to keep the event as it is.

    Only statements are read: a ``say`` (its ``text``, the speaker is ``speaker``) and a ``vote``: a banish vote
    claims its own ``voted_for`` (the voter voted for the target, as the traitors-plomp importer writes it), and a
    reason ``text`` gives the claims of its words (the speaker is ``voter``), stances included as
    :func:`statement_options` says. An event whose object has a ``claims`` key keeps its claims as given,
    ``"claims": []`` included (pydantic's ``model_fields_set`` tells an explicit empty list from an absent key).
    None too when nothing is found. ``rounds``: the ballot rounds at the event (``voted_for`` claims get their
    round; see :func:`with_rounds` for the vote's own claim). Deterministic: the same event, players and rounds
    always give the same claims.
    """
    if "claims" in event.model_fields_set:
        return None
    found: list[Claim] = []
    if isinstance(event, VoteEvent) and event.ballot == "banish" and event.target is not None:
        found.append(Claim(subject=event.voter, predicate="voted_for", object=event.target))
    options = statement_options(event)
    if options is not None:
        text, stances, addressee = options
        speaker = event.speaker if isinstance(event, SayEvent) else event.voter if isinstance(event, VoteEvent) \
            else None
        found.extend(c for c in extractor.extract(text, speaker, rounds=rounds, stances=stances, addressee=addressee)
                     if c not in found)
    return tuple(found) or None


def with_rounds(event: Event, claims: Sequence[Claim], rounds: VoteRounds, day: int) -> tuple[Claim, ...]:
    """``claims`` with every ``voted_for`` claim naming its round (docs/perception.md#claims): a banish vote's own claim
    (the voter voted for the target) is about the vote's ``day``; any other without a round is about the latest ballot
    before the statement (:meth:`VoteRounds.past`). Claims that name a round keep it. A claim that then repeats an
    earlier one is dropped."""
    out = []
    for c in claims:
        if c.predicate == "voted_for" and c.round is None:
            own = (isinstance(event, VoteEvent) and event.ballot == "banish" and c.subject == event.voter
                   and c.object == event.target and c.polarity)
            found = day if own else rounds.past(c.subject, c.object)
            if found is not None:
                c = c.model_copy(update={"round": found})
        if c not in out:
            out.append(c)  # "I'm voting for Zoë" as the reason of the vote for Zoë says what the vote says
    return tuple(out)
