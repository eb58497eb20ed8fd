"""The rows of a stored game: one frozen dataclass per node or relationship kind of docs/graph-model.md.

Each ``row()`` gives the parameter map of one ``UNWIND $rows`` element; field names are the graph's property
names (plus the uids of the nodes a row links to, :mod:`graphmem.store.keys`). :class:`GameRows` is what
:func:`graphmem.store.writer.write_game_rows` writes: ingest builds it, the store layer knows nothing of logs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


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
    side_names: list[str]


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
    """An Event node (ground truth) with IN_PHASE, BY, TARGETS and WITNESSED_BY edges. ``secret``: a vote only its
    voter saw (a quest card); ``choice``: a yes/no vote's choice ("approve", "fail", ...); ``result``: an outcome's
    result ("fail", "approved", ...); ``belief``: a belief's role or side ("Merlin", "evil", ...);
    ``annotations_json``: the event's annotations (labels added after play, never perceived) as a JSON object, or
    None when it has none."""

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
    secret: bool
    choice: str | None
    result: str | None
    belief: str | None
    annotations_json: str | None
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
    attributed: str | None = None
    """For a statement: its words with its speaker as the owner perceived it at encoding ("Melanie: I play the
    clarinet", the owner's own name on the owner's own statements), which is what is embedded; None for anything
    else, whose ``text`` is embedded (docs/model.md#candidates-and-ranking)."""
    context: str | None = None
    """For a statement: the words of the statement it followed in the same conversation, as the owner heard them
    (the situation of encoding the full-text index searches with a lower weight, docs/model.md#candidates-and-ranking);
    None for anything else or an opening statement."""

    @property
    def embedded(self) -> str:
        """What the memory's embedding is made of: :attr:`attributed` for a statement, else :attr:`text`."""
        return self.attributed or self.text


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
    """A Thought node (working memory, docs/model.md#working-memory) and its THINKS edge."""

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
    """``(memory)-[:DERIVED_FROM {similarity, via}]->(origin)`` of a rumour chain (docs/perception.md#rumour-chains)."""

    memory_uid: str
    origin_uid: str
    similarity: float
    via: str


@dataclass
class GameRows:
    """Every row of one game, nodes before relationships, as :func:`graphmem.store.writer.write_game_rows`
    writes them (the memories' embeddings are passed beside them)."""

    game: GameRow
    players: list[PlayerRow]
    phases: list[PhaseRow]
    events: list[EventRow]
    memories: list[MemoryRow]
    told: list[ToldRow]
    thoughts: list[ThoughtRow]
