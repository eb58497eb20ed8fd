"""The rows ingest writes: one frozen dataclass per node or relationship kind of docs/graph-model.md.

Each ``row()`` gives the parameter map of one ``UNWIND $rows`` element; field names are the graph's property
names (plus the uids of the nodes a row links to).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any


def game_uid(game: str) -> str:
    """``{game}``."""
    return game


def player_uid(game: str, name: str) -> str:
    """``{game}/player/{name}``."""
    return f"{game}/player/{name}"


def phase_uid(game: str, index: int) -> str:
    """``{game}/phase/{index}``."""
    return f"{game}/phase/{index}"


def event_uid(game: str, event_id: str) -> str:
    """``{game}/event/{id}``."""
    return f"{game}/event/{event_id}"


def memory_uid(game: str, owner: str, event_id: str, lesson: bool = False) -> str:
    """``{game}/memory/{owner}/{event}`` (``.../lesson`` for the outcome lesson of that event)."""
    return f"{game}/memory/{owner}/{event_id}" + ("/lesson" if lesson else "")


def scope_token(game: str, owner: str) -> str:
    """A memory's ``scope``: one Lucene-safe token naming its owner, ``"s" + sha1(f"{game}/{owner}")[:20]``.

    The full-text index ``memory_text`` covers it, so recall asks Lucene for ``(topic words) AND scope:TOKEN``
    and gets only the owner's matches instead of every game's. Game ids and player names may hold any character
    (Lucene's analyzer would split ``game-1/Ann`` into several tokens), hence the hash: a letter and 20 hex
    digits, one token, lower case, 80 bits (no collision among any realistic number of owners).
    """
    return "s" + hashlib.sha1(f"{game}/{owner}".encode()).hexdigest()[:20]


def source_uid(game: str, owner: str, event_id: str, lesson: bool = False) -> str:
    """``{game}/source/{owner}/{event}`` (``.../lesson`` for a lesson)."""
    return f"{game}/source/{owner}/{event_id}" + ("/lesson" if lesson else "")


def thought_uid(game: str, player: str, thought_id: str) -> str:
    """``{game}/thought/{player}/{id}``."""
    return f"{game}/thought/{player}/{thought_id}"


AUTOMATIC_TRIGGERS = ("flashbulb", "accusation")
"""The triggers of the working-memory items ingest pushes by itself from one memory (SPEC 7)."""


def automatic_thought_id(event_id: str, trigger: str) -> str:
    """``{event}-{trigger}``: the id of the thought ingest pushes from ``event_id`` for ``trigger`` (one of
    :data:`AUTOMATIC_TRIGGERS`), so that forgetting the memory finds it again."""
    return f"{event_id}-{trigger}"


class _Row:
    def row(self) -> dict[str, Any]:
        """The parameter map of this row."""
        return asdict(self)  # type: ignore[call-overload, no-any-return]


@dataclass(frozen=True)
class GameRow(_Row):
    """The Game node."""

    uid: str
    game: str
    title: str
    format: str
    imported_from: str
    curve: str
    last_phase: int
    winner: str | None
    traitor_roles: list[str]


@dataclass(frozen=True)
class PlayerRow(_Row):
    """A Player node (its final status) and its HAS_PLAYER edge."""

    uid: str
    game: str
    name: str
    role: str
    profile: str
    status: str
    eliminated_phase: int | None
    eliminated_day: int | None
    wm_capacity: int
    threshold: float
    emotion_json: str


@dataclass(frozen=True)
class PhaseRow(_Row):
    """A Phase node, its HAS_PHASE edge and the NEXT edge from the previous phase (``previous`` uid or None)."""

    uid: str
    game: str
    index: int
    day: int
    name: str
    previous: str | None


@dataclass(frozen=True)
class EventRow(_Row):
    """An Event node (ground truth) with IN_PHASE, BY, TARGETS and WITNESSED_BY edges."""

    uid: str
    game: str
    id: str
    kind: str
    phase: int
    day: int
    line: int
    text: str
    channel: str | None
    ballot: str | None
    actor: str | None
    targets: list[str]
    witnesses: list[str]
    details_json: str
    claims_json: str
    role_revealed: str | None
    t: str | None
    phase_uid: str
    actor_uid: str | None
    target_uids: list[str]
    witness_uids: list[str]


@dataclass(frozen=True)
class MemoryRow(_Row):
    """A Memory node with its Source node and the REMEMBERS, OF_EVENT, FROM, VIA, GIVEN_BY and ABOUT edges.

    The fields are the properties of docs/graph-model.md; ``owner_uid``, ``event_uid``, ``source_uid``,
    ``teller_uid`` and ``about_uids`` name the linked nodes; ``channel`` and ``day`` also go on the Source.
    """

    uid: str
    game: str
    owner: str
    event: str
    kind: str
    type: str
    text: str
    template: str
    details_json: str
    n_lost: int
    fabricated: bool
    about: list[str]
    keywords: str
    scope: str
    claims_json: str
    t_enc: int
    day: int
    phase_name: str
    salience: float
    relevance: float
    emotion_peak: float
    emotion_json: str
    surprise: float
    consequence: float
    flashbulb: bool
    flashbulb_score: float
    floor: float
    e0: float
    s_enc: float
    decay_rate: float
    e_ref: float
    t_ref: int
    s: float
    n: int
    strength: float
    decayed_to: int
    state: str
    threshold: float
    source_type: str
    teller: str | None
    c0: float
    source_k: float
    source_confidence: float
    source_belief: str
    believed_teller: str | None
    misattributed: bool
    channel: str | None
    owner_uid: str
    event_uid: str
    source_uid: str
    teller_uid: str | None
    about_uids: list[str] = field(default_factory=list)
    own: bool = False


@dataclass(frozen=True)
class ToldRow(_Row):
    """``(teller)-[:TOLD {event, phase, day, channel}]->(listener)``: one per statement and listener."""

    teller_uid: str
    listener_uid: str
    event: str
    phase: int
    day: int
    channel: str


@dataclass(frozen=True)
class ThoughtRow(_Row):
    """A Thought node (working memory, SPEC 7) and its THINKS edge."""

    uid: str
    game: str
    player: str
    content: str
    priority: float
    persistence: int
    pushed_phase: int
    expires_phase: int
    seq: int
    trigger: str
    active: bool
    persistence_left: int
    player_uid: str


@dataclass(frozen=True)
class DerivedRow(_Row):
    """``(memory)-[:DERIVED_FROM {similarity, via}]->(origin)`` of a rumour chain (SPEC 3.2)."""

    memory_uid: str
    origin_uid: str
    similarity: float
    via: str
