"""The canonical game-log format "graphmem/1" (docs/log-format.md) as pydantic v2 models.

A canonical log is UTF-8 JSONL: line 1 is a :class:`GameHeader`, every later line one event. Every model is
strict: unknown fields are rejected (``extra="forbid"``), strings, integers, numbers and booleans are never coerced
(``"1"`` is not an int, ``true`` is not a number), lists are JSON arrays (held as tuples).

This module checks one object at a time. What needs context (the first line is the header, player names exist,
phases never go back, event ids are unique) is checked by :mod:`graphmem.logs.reader`.

Player-valued fields (checked against the header's players by the reader): ``speaker``, ``to``, ``witnesses``,
``voter``, ``target``, ``victim``, ``by``, ``player``, ``observers``, ``about``, ``leader``, ``team``, the keys of
``emotion``, and in claims (docs/perception.md#claims) the subject of the functional predicates ``role``, ``side`` and
``voted_for`` and of the stance predicates ``suspects`` and ``trusts``, and the object of ``voted_for``, ``suspects``
and ``trusts``. Claim subjects and objects of other predicates are free text ("the murder", "Gwendolyn's vote").

Mission games (Avalon and its kin, docs/log-format.md) add ``propose`` (a leader proposes a team) and ``outcome`` (what
became public: a vote tally, a quest's result), and yes/no ``vote`` ballots with a ``choice`` and, for what only the
voter sees (a quest card), ``secret``.

A ``reflect`` (docs/log-format.md#reflections) is a player's own conclusion after the game, about another player
(``about``, one name) or about themselves; reflections may follow the ``end`` event. A ``belief``
(docs/log-format.md#beliefs) is a conclusion a player stated during the game: what role or side they take another
player (``about``, one name) to hold. Both are perceived by their player alone.

``annotations`` (every perceived event) are labels added after play, for analysis (a corpus's persuasion and
deception labels): stored with the event, never perceived.

Player names, in the header and in every one of those fields, are normalised to Unicode NFC when read, so a name
written with a combining accent ("Chloe\u0301", NFD) and the precomposed one ("Chlo\u00e9", NFC) are the same
player. Texts that must say something (``say``, ``observe`` and ``thought`` texts) need a visible character:
whitespace and invisible characters alone (zero-width spaces, joiners, bidi marks, combining marks) count as empty.
"""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    Strict,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)

from graphmem.errors import INTEGER_MAX

FORMAT = "graphmem/1"
"""The value of the header's ``format`` field."""

DEFAULT_TRAITOR_ROLES: tuple[str, ...] = ("traitor",)
"""The roles of the hidden killing side when the header names none (The Traitors)."""


def recruit_role(recruiter_role: str | None, traitor_roles: tuple[str, ...]) -> str:
    """The role a ``recruit`` gives: the recruiter's when it is on the traitor side, else the first traitor-side
    role (The Traitors: "traitor"; a Werewolf game recruits werewolves)."""
    return recruiter_role if recruiter_role is not None and recruiter_role in traitor_roles else traitor_roles[0]

CHANNELS = ("private", "public", "roundtable", "traitors")
"""The channels of a ``say`` event."""

FUNCTIONAL_PREDICATES = frozenset({"role", "voted_for"})
"""Claim predicates with one true object at a time (docs/perception.md#claims; ``voted_for`` one per ballot round);
their subjects must be players."""

STANCE_PREDICATES = frozenset({"suspects", "trusts"})
"""Stance predicates (docs/perception.md#claims): the subject (the speaker) suspects or trusts the object (a player)."""

PLAYER_PREDICATES = FUNCTIONAL_PREDICATES | STANCE_PREDICATES | {"side"}
"""Claim predicates whose subject must be a player of the game. ``side`` claims a player's side by the game's name
for it (:class:`SideNames`: "Charlie is evil", "I am good" in Avalon), where that name is no player's role."""

DEFAULT_SIDE_NAMES = ("traitor", "faithful")
"""The names of the two sides when the header names none: the hidden side and everyone else (The Traitors)."""

PLAYER_OBJECT_PREDICATES = frozenset({"voted_for"}) | STANCE_PREDICATES
"""Claim predicates whose object must be a player of the game."""


def _iso_timestamp(value: str) -> str:
    try:
        datetime.fromisoformat(value[:-1] + "+00:00" if value.endswith("Z") else value)
    except ValueError:
        raise ValueError("must be an ISO 8601 timestamp such as 2025-04-12T15:27:09.773481") from None
    return value


_INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Mn", "Me"})
"""Unicode categories that show nothing on their own: spaces and separators, controls, format characters (zero-width
space, joiners, bidi marks), surrogates, and combining marks (which only modify a visible character)."""
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters of visible categories that render blank: the Hangul fillers and the blank Braille pattern."""


def has_visible_text(text: str) -> bool:
    """True when ``text`` holds at least one visible character (not only whitespace, zero-width or other invisible
    characters such as U+200B, U+200D, U+2060, U+FEFF, bidi marks, lone combining marks or Hangul fillers)."""
    return any(unicodedata.category(c) not in _INVISIBLE_CATEGORIES and c not in _BLANK_LETTERS for c in text)


def _has_text(value: str) -> str:
    if not has_visible_text(value):
        raise ValueError("must contain a visible character (it is empty, or only whitespace or invisible "
                         "characters such as U+200B)")
    return value


def nfc(name: str) -> str:
    """A player name in Unicode normal form C (how every player name is compared and stored)."""
    return unicodedata.normalize("NFC", name)


_SURROGATE = re.compile("[\ud800-\udfff]")


def check_unicode(text: str) -> None:
    """Return when ``text`` is valid Unicode; raise ValueError naming the first lone surrogate and its 0-based
    character position otherwise. JSON may escape one (``"\\ud83d"``: half of an emoji, cut by a JavaScript
    sender), Python reads it, and no UTF-8 text (a log line, a Neo4j string) can hold it."""
    found = _SURROGATE.search(text)
    if found is not None:
        raise ValueError(f"character {found.start()} is a lone surrogate (\\u{ord(found.group()):04x}): not valid "
                         "Unicode, e.g. half of an emoji cut by the sender; send the whole character")


def unicode_problems(obj: Any, path: str = "") -> list[tuple[str, str]]:
    """``(field, reason)`` for every string of a JSON value (keys included) that is not valid Unicode
    (:func:`check_unicode`); ``field`` is dotted with list positions, e.g. ``"to[1]"``, ``"emotion.Ann"``."""
    found: list[tuple[str, str]] = []
    if isinstance(obj, str):
        try:
            check_unicode(obj)
        except ValueError as e:
            found.append((path, str(e)))
    elif isinstance(obj, dict):
        for key, value in obj.items():
            if isinstance(key, str) and _SURROGATE.search(key):
                found.extend((path or "(key)", f"a key: {reason}") for _, reason in unicode_problems(key))
                continue
            found.extend(unicode_problems(value, f"{path}.{key}" if path else str(key)))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            found.extend(unicode_problems(value, f"{path}[{i}]"))
    return found


_PLAYER_NAME = re.compile(r"[^\s/](?:[^/]*[^\s/])?")
_GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
_EVENT_ID = re.compile(r"[A-Za-z0-9._:-]+")


_UNSEEN_AT_AN_END = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs"})
"""Categories a player name may not start or end with: spaces, separators, controls and format characters (zero-width
space, joiners, bidi marks). "A\u200b" would show as a second "A"; combining marks may end a name ("q\u0307")."""


def _player_name(value: str) -> str:
    if not _PLAYER_NAME.fullmatch(value):
        raise ValueError("a player name must not be empty, contain '/' or start or end with a space "
                         f"(names become part of node ids), got {value!r}")
    name = nfc(value)
    for end, char in (("start", name[0]), ("end", name[-1])):
        if unicodedata.category(char) in _UNSEEN_AT_AN_END or char in _BLANK_LETTERS:
            raise ValueError(f"a player name must not {end} with an invisible character (U+{ord(char):04X} "
                             f"{unicodedata.name(char, 'unnamed')}: the name would look like another), got {value!r}")
    return name


def _game_id(value: str) -> str:
    if not _GAME_ID.fullmatch(value):
        raise ValueError("a game id may only contain letters, digits and the characters . _ : - and must start "
                         f"with a letter or digit, got {value!r}")
    return value


def _series_name(value: str) -> str:
    if not _GAME_ID.fullmatch(value):
        raise ValueError("a series name may only contain ASCII letters, digits and the characters . _ : - and must "
                         f"start with an ASCII letter or digit, got {value!r}")
    return value


def _event_id(value: str) -> str:
    if not _EVENT_ID.fullmatch(value):
        raise ValueError(f"an event id may only contain letters, digits and the characters . _ : -, got {value!r}")
    return value


def _vote_count(value: Any) -> Any:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    shown = "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else \
        json.dumps(value, ensure_ascii=False)[:40]
    raise ValueError(f"must be an integer, the number of votes against the banished player (e.g. 5), got {shown}; "
                     "each player's vote is a vote event of its own")


def _murderers(value: Any) -> Any:
    # One murderer may be given as a name: a reader knows what "by": "Sarah" means (docs/log-format.md), and it is stored as
    # the list ["Sarah"].
    if isinstance(value, str):
        return [value]
    if value is None or isinstance(value, (list, tuple)):
        return value
    shown = "an object" if isinstance(value, dict) else json.dumps(value, ensure_ascii=False)[:40]
    raise ValueError(f'must be a player name or a list of player names (e.g. "Sarah" or ["Sarah", "Thomas"]), '
                     f"got {shown}")


def _recruiter(value: Any) -> Any:
    if isinstance(value, list):
        raise ValueError('must be one player name (a string, e.g. "Sarah"), not a list: a recruitment has one '
                         "recruiter")
    return value


def _one_observed(value: Any) -> Any:
    if isinstance(value, list):
        raise ValueError('must be one player name (a string, e.g. "Charlie"), not a list: a reflection is about one '
                         "player (write one reflection per player)")
    return value


def _one_believed(value: Any) -> Any:
    if isinstance(value, list):
        raise ValueError('must be one player name (a string, e.g. "Charlie"), not a list: a belief is about one '
                         "player (write one belief per player)")
    return value


def _perceived_by_player_alone(player: str, witnesses: tuple[str, ...] | None, emotion: dict[str, Any] | None,
                               what: str) -> None:
    """Raise ValueError when ``witnesses`` or the keys of ``emotion`` name anyone but ``player`` (``what``: "a
    reflection", "a belief")."""
    others = [w for w in dict.fromkeys([*(witnesses or ()), *(emotion or {})]) if w != player]
    if others:
        raise ValueError(f"{what} is perceived by its player alone ({player}), but witnesses or emotion also "
                         f"names {', '.join(others)}")


Text = Annotated[str, Strict(), StringConstraints(min_length=1)]
"""A non-empty string."""
Speech = Annotated[str, Strict(), AfterValidator(_has_text)]
"""A string with at least one visible character (see :func:`has_visible_text`)."""
Name = Annotated[str, Strict(), StringConstraints(min_length=1), AfterValidator(nfc)]
"""A player name in an event, normalised to NFC (must be one of the header's players: checked by the reader)."""
PlayerName = Annotated[str, Strict(), AfterValidator(_player_name)]
"""A player name in the header: non-empty, no surrounding whitespace, no "/" (names go into node uids); NFC."""
GameId = Annotated[str, Strict(), StringConstraints(max_length=200), AfterValidator(_game_id)]
"""A game id: letters, digits and ``. _ : -`` (it prefixes every node uid)."""
SeriesName = Annotated[str, Strict(), StringConstraints(max_length=200), AfterValidator(_series_name)]
"""A series name: ASCII letters, digits and ``. _ : -``, as a game id (it prefixes the series' node uids)."""
EventId = Annotated[str, Strict(), StringConstraints(max_length=200), AfterValidator(_event_id)]
"""An event id: letters, digits and ``. _ : -`` (default: the event's line number)."""
Timestamp = Annotated[str, Strict(), AfterValidator(_iso_timestamp)]
"""An ISO 8601 timestamp, kept as written."""
Intensity = Annotated[float, Strict(), Field(ge=0.0, le=1.0)]
"""A number in [0, 1] (an integer 0 or 1 is accepted)."""
Count = Annotated[int, Strict(), Field(ge=0, le=INTEGER_MAX)]
"""A non-negative integer (at most :data:`graphmem.errors.INTEGER_MAX`, the largest Neo4j stores)."""
Emotions = dict[Text, Intensity]
"""``{emotion: intensity}``, e.g. ``{"fear": 0.8, "anger": 0.3}``."""
Annotations = dict[Text, Annotated[str, Strict()] | None]
"""``{label: value or null}``, e.g. ``{"persuasion": "accusation", "deception": null}``."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Claim(_Model):
    """A claim carried by a statement (docs/perception.md#claims).

    subject : str, a player name for the predicates ``role``, ``voted_for``, ``suspects`` and ``trusts``,
        otherwise free text
    predicate : str, open set; ``role`` and ``voted_for`` are functional (one true object at a time; for
        ``voted_for`` one per ballot round); ``suspects`` and ``trusts`` are stances (subject: the speaker)
    object : str, the claimed value (a role name; a player name for ``voted_for``, ``suspects`` and ``trusts``)
    polarity : bool, False for a negated claim ("X is not a traitor", "I don't trust X"); default True
    round : int >= 0 or None, only for ``voted_for``: the day of the banish ballot the claim is about. None (the
        default) in a log means "the latest ballot before the statement"; encoding fills it in (docs/perception.md#claims)
    """

    subject: Text
    predicate: Text
    object: Text
    polarity: Annotated[bool, Strict()] = True
    round: Count | None = None

    @model_validator(mode="after")
    def _nfc_players(self) -> Claim:
        # The player-valued parts are player names: NFC like every other name (the model is frozen).
        if self.predicate in PLAYER_PREDICATES:
            object.__setattr__(self, "subject", nfc(self.subject))
        if self.predicate in PLAYER_OBJECT_PREDICATES:
            object.__setattr__(self, "object", nfc(self.object))
        if self.round is not None and self.predicate != "voted_for":
            raise ValueError(f"round is only for voted_for claims (a ballot round), not {self.predicate!r}")
        return self


class PlayerSpec(_Model):
    """One player in the header: ``name``, ``role`` (faithful, traitor or the game's own role names) and an
    optional memory ``profile`` name (docs/model.md#profiles; unknown names are rejected when the profile is resolved)."""

    name: PlayerName
    role: Text
    profile: Text | None = None


class SideNames(_Model):
    """What a game calls its two sides: ``traitor`` the hidden side (the header's ``traitor_roles``), ``faithful``
    everyone else. Default "traitor" and "faithful"; Avalon: "evil" and "good"; Mafia: "mafia" and "bystander".

    A ``reveal`` may give a side name in place of a role (Merlin sees that Charlie is evil, not which evil role he
    holds), and statements may claim a side ("I am good": a ``side`` claim where the name is no player's role).
    """

    traitor: Text = DEFAULT_SIDE_NAMES[0]
    faithful: Text = DEFAULT_SIDE_NAMES[1]

    @model_validator(mode="after")
    def _distinct(self) -> SideNames:
        if self.traitor.casefold() == self.faithful.casefold():
            raise ValueError(f"the two sides need different names, got {self.traitor!r} twice")
        return self


class SeriesSpec(_Model):
    """The series of games a game belongs to (docs/log-format.md#series-of-games, docs/model.md#series-of-games):
    the same people playing again, each game with its own players and roles.

    name : str, the series id (letters, digits and ``. _ : -``, like a game id: it prefixes the series' node uids)
    position : int >= 1 or None, the game's place in the series (None: after the series' last stored game, so games
        ingested one after another join in that order)
    """

    name: SeriesName
    position: Annotated[int, Strict(), Field(ge=1, le=INTEGER_MAX)] | None = None


class GameHeader(_Model):
    """Line 1 of a canonical log.

    kind : "game"
    format : "graphmem/1"
    game : str, the game id (letters, digits, ``. _ : -``)
    title : str, default ""
    players : list of PlayerSpec, at least one, names unique ignoring case
    traitor_roles : list of str, the roles that form the traitor side, the hidden killing side that hears the
        ``traitors`` channel and casts murder votes (default ["traitor"]; a Werewolf log says ["werewolf"]); each
        must be the role of some player, none twice
    side_names : SideNames, what the game calls its two sides (default "traitor" and "faithful"); neither may be
        a role held only on the other side
    source : str or None, where the log came from (e.g. a repository and path)
    licence : str or None, the licence of the log
    imported_from : str or None, the importer that produced it (None: written natively)
    metadata : JSON object, anything else worth keeping (models per player, prize split, ...)
    series : SeriesSpec or None, the series of games this game belongs to (None: none)
    """

    kind: Literal["game"]
    format: Literal["graphmem/1"]
    game: GameId
    title: Annotated[str, Strict()] = ""
    players: tuple[PlayerSpec, ...] = Field(min_length=1)
    traitor_roles: tuple[Text, ...] = Field(default=DEFAULT_TRAITOR_ROLES, min_length=1)
    side_names: SideNames = SideNames()
    source: Text | None = None
    licence: Text | None = None
    imported_from: Text | None = None
    metadata: dict[str, JsonValue] = Field(default_factory=dict)
    series: SeriesSpec | None = None

    @field_validator("players")
    @classmethod
    def _unique_names(cls, players: tuple[PlayerSpec, ...]) -> tuple[PlayerSpec, ...]:
        seen: dict[str, str] = {}
        for p in players:
            key = p.name.casefold()
            if key in seen:
                raise ValueError(f"duplicate player name {p.name!r} (names must differ ignoring case: {seen[key]!r})")
            seen[key] = p.name
        return players

    @field_validator("traitor_roles")
    @classmethod
    def _known_traitor_roles(cls, roles: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        if len(set(roles)) != len(roles):
            raise ValueError("names a role twice")
        players = info.data.get("players")
        if roles == DEFAULT_TRAITOR_ROLES or players is None:
            return roles  # the default holds even in a game without traitors; bad players are reported already
        held = list(dict.fromkeys(p.role for p in players))
        unknown = [r for r in roles if r not in held]
        if unknown:
            raise ValueError(f"{', '.join(repr(r) for r in unknown)} is not the role of any player "
                             f"(roles: {', '.join(held)})")
        return roles

    @model_validator(mode="after")
    def _side_names_not_other_roles(self) -> GameHeader:
        hidden = set(self.traitor_roles)
        for side, name, other in (("traitor", self.side_names.traitor, {p.role for p in self.players} - hidden),
                                  ("faithful", self.side_names.faithful, hidden)):
            if name in other:
                raise ValueError(f"side_names.{side} is {name!r}, a role of the other side: a reveal or claim of "
                                 f"{name!r} would name both sides")
        return self

    @property
    def player_names(self) -> tuple[str, ...]:
        """The player names, in header order."""
        return tuple(p.name for p in self.players)

    @property
    def roles(self) -> dict[str, str]:
        """``{player name: role}`` as declared in the header (the initial roles)."""
        return {p.name: p.role for p in self.players}


class _EventBase(_Model):
    """Fields every event has: ``id`` (default: its line number, filled in by the reader) and ``t``."""

    id: EventId | None = None
    t: Timestamp | None = None


class _Perceived(_EventBase):
    """Fields of the events players perceive.

    witnesses : list of player names or None (None: the kind's default, docs/log-format.md; [] means nobody)
    emotion : ``{player: {emotion: intensity in [0, 1]}}`` or None, the perceivers' state from a game's emotion
        engine (None: docs/model.md#salience's appraisal applies)
    claims : list of Claim (docs/perception.md#claims), default empty. Absent and ``[]`` differ (``"claims" in
        model_fields_set``): a ``say`` or a ``vote`` with a reason ``text`` that has no ``claims`` key gets the
        claims of its text when it is encoded (:func:`graphmem.claims.extract.derived_claims`; logs written natively
        and live games), ``[]`` means none; the writer keeps an explicit ``[]``
    annotations : ``{label: str or None}``, default empty: labels added after play for analysis (Avalon-NLU's
        ``persuasion`` and ``deception`` of a message, docs/log-format.md#annotations). Stored on the Event node
        (``annotations_json``) and never perceived: no memory's text, details, keywords or embedding holds them
    """

    witnesses: tuple[Name, ...] | None = None
    emotion: dict[Name, Emotions] | None = None
    claims: tuple[Claim, ...] = ()
    annotations: Annotations = Field(default_factory=dict)


class PhaseEvent(_EventBase):
    """Opens the next phase: ``day`` (int >= 0) and ``name`` (breakfast, mission, social, roundtable,
    banishment, night, final, ...). Days never go back."""

    kind: Literal["phase"]
    day: Count
    name: Text


class SayEvent(_Perceived):
    """A statement: ``speaker``, ``to`` (non-empty list of players, or "all"), ``channel`` (private, public,
    roundtable, traitors; a private statement names its addressees), ``text`` (not blank), ``about`` (players
    the statement is about), ``claims``."""

    kind: Literal["say"]
    speaker: Name
    to: Union[Literal["all"], tuple[Name, ...]]
    channel: Literal["private", "public", "roundtable", "traitors"]
    text: Speech
    about: tuple[Name, ...] = ()

    @field_validator("to", mode="before")
    @classmethod
    def _check_to(cls, value: Any) -> Any:
        if value == "all":
            return value
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) and v for v in value):
            return value
        raise ValueError('must be a non-empty list of player names or "all"')

    @model_validator(mode="after")
    def _private_needs_addressees(self) -> SayEvent:
        if self.channel == "private" and self.to == "all":
            raise ValueError('a private statement needs a list of addressees in "to", not "all"')
        return self


class ObserveEvent(_Perceived):
    """Something seen: ``observers`` (non-empty list of players), ``text``, optional ``subject`` (free text),
    ``location`` and ``about`` (players involved)."""

    kind: Literal["observe"]
    observers: tuple[Name, ...] = Field(min_length=1)
    text: Speech
    subject: Text | None = None
    location: Text | None = None
    about: tuple[Name, ...] = ()


BALLOTS_WITH_TARGET = frozenset({"banish", "murder"})
"""Ballots whose votes must name a ``target``."""


class VoteEvent(_Perceived):
    """A vote: ``voter``, ``ballot`` (banish, murder, end_game, team, quest, ...), ``target`` (a player; required
    for banish and murder ballots), ``choice`` (for ballots without a player: end_game "end"/"continue", a team vote
    "approve"/"reject", a quest card "success"/"fail"), optional ``text`` (the reason), ``secret`` (true when only
    the voter sees the vote, e.g. a quest card; its witnesses are then the voter alone). A vote names a target or
    a choice."""

    kind: Literal["vote"]
    voter: Name
    ballot: Text
    target: Name | None = None
    choice: Text | None = None
    text: Text | None = None
    secret: Annotated[bool, Strict()] = False

    @model_validator(mode="after")
    def _target_or_choice(self) -> VoteEvent:
        if self.ballot in BALLOTS_WITH_TARGET and self.target is None:
            raise ValueError(f"a {self.ballot} vote needs a target")
        if self.target is None and self.choice is None:
            raise ValueError("a vote needs a target or a choice")
        if self.secret and self.witnesses is not None and any(w != self.voter for w in self.witnesses):
            others = ", ".join(w for w in dict.fromkeys(self.witnesses) if w != self.voter)
            raise ValueError(f"a secret vote is seen by its voter alone, but witnesses also names {others}")
        return self


class MurderEvent(_Perceived):
    """A murder: ``victim`` and optional ``by``, the players who chose the victim (hidden from faithfuls): a
    non-empty list, or one name, which is read as the list of that one name (``"Sarah"`` is ``["Sarah"]``)."""

    kind: Literal["murder"]
    victim: Name
    by: Annotated[tuple[Name, ...] | None, BeforeValidator(_murderers)] = Field(default=None, min_length=1)


class BanishEvent(_Perceived):
    """A banishment: ``player``, optional ``votes`` (an integer >= 0, the number of votes against them, not the
    list of voters: each vote is its own ``vote`` event) and ``role_revealed`` (None when the role stays hidden)."""

    kind: Literal["banish"]
    player: Name
    votes: Annotated[Count | None, BeforeValidator(_vote_count)] = None
    role_revealed: Text | None = None


class RevealEvent(_Perceived):
    """A role becomes known to the witnesses: ``player`` and ``role``."""

    kind: Literal["reveal"]
    player: Name
    role: Text


class RecruitEvent(_Perceived):
    """A player is recruited as a traitor: ``player`` and ``by`` (one player name, a string; unlike a murder's
    ``by``, which is a list)."""

    kind: Literal["recruit"]
    player: Name
    by: Annotated[Name, BeforeValidator(_recruiter)]


class ProposeEvent(_Perceived):
    """A mission game's team proposal: ``leader`` proposes ``team`` (a non-empty list of players, each once) for
    the next quest, with an optional ``text`` (the leader's reasons) and ``about`` (other players the reasons
    name). Default witnesses: the living players."""

    kind: Literal["propose"]
    leader: Name
    team: tuple[Name, ...] = Field(min_length=1)
    text: Text | None = None
    about: tuple[Name, ...] = ()

    @field_validator("team")
    @classmethod
    def _each_once(cls, team: tuple[str, ...]) -> tuple[str, ...]:
        twice = sorted({name for name in team if team.count(name) > 1})
        if twice:
            raise ValueError(f"names {', '.join(twice)} more than once")
        return team


class OutcomeEvent(_Perceived):
    """What became public after a ballot: ``what`` (its words, e.g. "Quest 2 (Alice, Bob, Eve) failed with 1 fail
    card"), optional ``result`` ("approved"/"rejected" for a team vote, "success"/"fail" for a quest: perception
    reads ``"fail"`` as a failed mission), ``counts`` (``{choice: number}``, e.g. ``{"approve": 3, "reject": 2}``),
    ``ballot`` (the ballot it is the outcome of: the voters of that ballot since its previous outcome were on the
    quest) and ``about`` (the players it concerns, e.g. the team). Default witnesses: the living players."""

    kind: Literal["outcome"]
    what: Speech
    result: Text | None = None
    counts: dict[Text, Count] | None = None
    ballot: Text | None = None
    about: tuple[Name, ...] = ()


class ThoughtEvent(_EventBase):
    """A working-memory item (docs/model.md#working-memory): ``player``, ``text``, ``priority`` in [0, 1],
    ``persistence`` (int >= 0,
    phases), optional ``procedural`` (a lesson, docs/model.md#encoding-strength-and-stability) and ``trigger``."""

    kind: Literal["thought"]
    player: Name
    text: Speech
    priority: Intensity
    persistence: Count
    procedural: Annotated[bool, Strict()] = False
    trigger: Text | None = None


class EmotionEvent(_EventBase):
    """Sets a player's current emotion state: ``player`` and ``state`` ``{emotion: intensity in [0, 1]}``."""

    kind: Literal["emotion"]
    player: Name
    state: Emotions


class EndEvent(_Perceived):
    """The game ends: ``winner`` (e.g. "faithfuls", "traitors") and an optional ``text``."""

    kind: Literal["end"]
    winner: Text
    text: Text | None = None


class ReflectEvent(_Perceived):
    """A player's reflection (docs/log-format.md#reflections): their own conclusion about ``about`` (a player, not
    themselves), or without ``about`` a self-assessment, in their own words (``text``, not blank). It is perceived by
    its player alone: ``witnesses``, if given, and the keys of ``emotion`` may name nobody else. Reflections may
    follow the ``end`` event (the only events that may), and after the end an eliminated player may reflect too."""

    kind: Literal["reflect"]
    player: Name
    about: Annotated[Name | None, BeforeValidator(_one_observed)] = None
    text: Speech

    @model_validator(mode="after")
    def _the_players_own(self) -> ReflectEvent:
        if self.about is not None and self.about == self.player:
            raise ValueError(f"a reflection of {self.player} about {self.player} is a self-assessment: leave out "
                             "about")
        _perceived_by_player_alone(self.player, self.witnesses, self.emotion, "a reflection")
        return self


class BeliefEvent(_Perceived):
    """A belief a player stated during the game (docs/log-format.md#beliefs, docs/perception.md#beliefs): their own
    conclusion that ``about`` (one other player, a string) holds ``belief`` (a role or a side as the player names it:
    "merlin", "Merlin", "servant", "evil", ...; open text, in any case; "undecided" withdraws a conclusion), with an
    optional ``text`` (their reasons, not blank). Perceived by its player alone: ``witnesses``, if given, and the
    keys of ``emotion`` may name nobody else. Unlike a ``reflect`` it is part of the game: it may not follow the
    ``end`` event, and an eliminated player holds none."""

    kind: Literal["belief"]
    player: Name
    about: Annotated[Name, BeforeValidator(_one_believed)]
    belief: Text
    text: Speech | None = None

    @model_validator(mode="after")
    def _the_players_own(self) -> BeliefEvent:
        if self.about == self.player:
            raise ValueError(f"a belief of {self.player} about {self.player}: a belief is about another player")
        _perceived_by_player_alone(self.player, self.witnesses, self.emotion, "a belief")
        return self


Event = Annotated[
    Union[
        PhaseEvent,
        SayEvent,
        ObserveEvent,
        VoteEvent,
        MurderEvent,
        BanishEvent,
        RevealEvent,
        RecruitEvent,
        ThoughtEvent,
        EmotionEvent,
        EndEvent,
        ProposeEvent,
        OutcomeEvent,
        ReflectEvent,
        BeliefEvent,
    ],
    Field(discriminator="kind"),
]
"""Any canonical event, discriminated on ``kind``."""

EVENT_MODELS: dict[str, type[_EventBase]] = {
    "phase": PhaseEvent,
    "say": SayEvent,
    "observe": ObserveEvent,
    "vote": VoteEvent,
    "murder": MurderEvent,
    "banish": BanishEvent,
    "reveal": RevealEvent,
    "recruit": RecruitEvent,
    "thought": ThoughtEvent,
    "emotion": EmotionEvent,
    "end": EndEvent,
    "propose": ProposeEvent,
    "outcome": OutcomeEvent,
    "reflect": ReflectEvent,
    "belief": BeliefEvent,
}
"""The model of each event kind (docs/log-format.md's order, then the mission-game kinds, then reflections and
beliefs)."""

EVENT_KINDS: tuple[str, ...] = tuple(EVENT_MODELS)
"""The known event kinds, in the order of docs/log-format.md."""


def player_references(event: _EventBase) -> list[tuple[str, str]]:
    """Every player name an event names, as ``(field path, name)`` pairs (e.g. ``("to[1]", "Marcus")``).

    Covers the player-valued fields listed in this module's docstring, claims included.
    """
    refs: list[tuple[str, str]] = []
    for field in ("speaker", "voter", "target", "victim", "player", "leader"):
        value = getattr(event, field, None)
        if isinstance(value, str):
            refs.append((field, value))
    by = getattr(event, "by", None)
    if isinstance(by, str):
        refs.append(("by", by))
    elif isinstance(by, tuple):
        refs.extend((f"by[{i}]", name) for i, name in enumerate(by))
    for field in ("to", "witnesses", "observers", "about", "team"):
        value = getattr(event, field, None)
        if isinstance(value, str) and field == "about":  # a reflection or a belief is about one player
            refs.append((field, value))
        elif isinstance(value, tuple):
            refs.extend((f"{field}[{i}]", name) for i, name in enumerate(value))
    emotion = getattr(event, "emotion", None)
    if isinstance(emotion, dict):
        refs.extend((f"emotion.{name}", name) for name in emotion)
    for i, claim in enumerate(getattr(event, "claims", ())):
        if claim.predicate in PLAYER_PREDICATES:
            refs.append((f"claims[{i}].subject", claim.subject))
        if claim.predicate in PLAYER_OBJECT_PREDICATES:
            refs.append((f"claims[{i}].object", claim.object))
    return refs
