"""The values of a recall: the request, a candidate as read from the graph, a recalled memory, a thought.

Frozen dataclasses with no I/O. The result of a whole recall, which renders itself as the prompt block, is
:class:`graphmem.recall.result.RecallResult`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graphmem.errors import INTEGER_MAX, UsageProblem
from graphmem.model.details import Detail, details_from_json
from graphmem.model.groups import RECALL_K_MAX
from graphmem.model.vocabulary import DetailKind, Marker, MemoryType

__all__ = ["ActiveThought", "Candidate", "RecallRequest", "RecalledMemory"]


@dataclass(frozen=True)
class RecallRequest:
    """What a game engine asks for (docs/model.md#recall-and-reconsolidation).

    game, player : str, the game id and the owner's name
    topic : str or None, what the conversation is about (None or blank: strength alone ranks, plus the
        participant boost)
    participants : tuple of player names in the conversation (memories about them get +0.2 relevance)
    at : int >= 0 or None, the phase to recall at (None: ``Game.decayed_to``); an earlier phase is a read-only
        look into the past (see :func:`graphmem.recall.recall`)
    k : int in 1..RECALL_K_MAX (100) or None, how many memories (None: ``parameters.recall.k``, 10)
    seed : int, the seed of reconsolidation's randomness (with the memory uid and access count)
    dry_run : bool, compute everything and write nothing
    Raises UsageProblem for k outside 1..RECALL_K_MAX or at outside 0..INTEGER_MAX.
    """

    game: str
    player: str
    topic: str | None = None
    participants: tuple[str, ...] = ()
    at: int | None = None
    k: int | None = None
    seed: int = 0
    dry_run: bool = False

    def __post_init__(self) -> None:
        if self.k is not None and not 1 <= self.k <= RECALL_K_MAX:
            raise UsageProblem(f"k must be 1 to {RECALL_K_MAX} (how many memories a recall returns), got {self.k}",
                               field="k")
        if self.at is not None and self.at < 0:
            raise UsageProblem(f"the recall phase must be 0 or later, got {self.at}", field="at")
        if self.at is not None and self.at > INTEGER_MAX:
            raise UsageProblem(f"the recall phase must be at most {INTEGER_MAX} (the largest integer Neo4j stores), "
                               f"got {self.at}", field="at")
        object.__setattr__(self, "participants", tuple(dict.fromkeys(self.participants)))

    @property
    def has_topic(self) -> bool:
        """Whether the topic holds any non-blank text."""
        return bool(self.topic and self.topic.strip())


def _float(row: Mapping[str, Any], key: str, default: float) -> float:
    value = row.get(key)
    return default if value is None else float(value)


def _int(row: Mapping[str, Any], key: str, default: int) -> int:
    value = row.get(key)
    return default if value is None else int(value)


@dataclass(frozen=True)
class Candidate:
    """One of the owner's live memories as the recall query reads it (docs/graph-model.md property names).

    dense : float in [-1, 1] or None, the raw dense score cos(topic, text)
        (:func:`graphmem.recall.pipeline.dense_scores`; None: no topic);
    lexical : float >= 0, the lexical (BM25) score of the topic (0: not matched);
    witnesses : who was there with the owner: the other witnesses of the event but a murder's victim (read for
    flashbulbs only); summary : bool, labelled Summary; own : the owner's own statement or action
    (docs/model.md#source-memory: it keeps its source);
    similar : (uid, cosine) of the other pre-selected candidates with cosine >= ``similarity.detail_import`` (the
    memories recalled together lend each other details and tellers,
    :func:`graphmem.recall.reconsolidate.recalled_together`). Missing numeric properties (a summary written without
    them) fall back to neutral values: e0 = e_ref, s_enc = s, t_ref = t_enc, n = 0.
    """

    uid: str
    event: str | None
    kind: str
    summary: bool
    text: str
    template: str | None
    details: tuple[Detail, ...]
    about: tuple[str, ...]
    t_enc: int
    day: int | None
    phase_name: str | None
    flashbulb: bool
    floor: float
    e0: float
    s_enc: float
    e_ref: float
    t_ref: int
    s: float
    n: int
    salience: float
    memory_type: MemoryType
    c0: float
    source_k: float
    source_type: str | None
    teller: str | None
    believed_teller: str | None
    threshold: float
    state: str
    emotion_json: str
    dense: float | None
    lexical: float
    witnesses: tuple[str, ...]
    own: bool = False
    similar: tuple[tuple[str, float], ...] = ()

    @classmethod
    def from_row(cls, row: Mapping[str, Any], player_threshold: float) -> Candidate:
        """A candidate from one map of the ``recall/context`` query."""
        e_ref = _float(row, "e_ref", 0.0)
        s = _float(row, "s", 1.0)
        t_enc = _int(row, "t_enc", 0)
        try:
            memory_type = MemoryType(row.get("type") or "episodic")
        except ValueError:
            memory_type = MemoryType.EPISODIC
        return cls(
            uid=str(row["uid"]), event=row.get("event"), kind=str(row.get("kind") or "memory"),
            summary=bool(row.get("summary")), text=str(row.get("text") or ""), template=row.get("template"),
            details=details_from_json(row.get("details_json") or "[]"), about=tuple(row.get("about") or ()),
            t_enc=t_enc, day=row.get("day"), phase_name=row.get("phase_name"), flashbulb=bool(row.get("flashbulb")),
            floor=_float(row, "floor", 0.0), e0=_float(row, "e0", e_ref), s_enc=_float(row, "s_enc", s),
            e_ref=e_ref, t_ref=_int(row, "t_ref", t_enc), s=s, n=_int(row, "n", 0),
            salience=_float(row, "salience", 0.0), memory_type=memory_type, c0=_float(row, "c0", 0.0),
            source_k=_float(row, "source_k", 1.0), source_type=row.get("source_type"), teller=row.get("teller"),
            believed_teller=row.get("believed_teller"), threshold=_float(row, "threshold", player_threshold),
            state=str(row.get("state") or "active"), emotion_json=str(row.get("emotion_json") or "{}"),
            dense=None if row.get("dense") is None else float(row["dense"]), lexical=_float(row, "lexical", 0.0),
            witnesses=tuple(sorted(row.get("witnesses") or ())), own=bool(row.get("own")),
            similar=tuple((str(s["uid"]), float(s["cosine"])) for s in row.get("similar") or ()))


@dataclass(frozen=True)
class ActiveThought:
    """A working-memory item active at the recall phase (docs/model.md#working-memory). focus : bool, the
    highest-priority item."""

    uid: str
    content: str
    priority: float
    trigger: str
    pushed_phase: int
    focus: bool


@dataclass(frozen=True)
class RecalledMemory:
    """One recalled memory as the owner now remembers it (after this recall's reconsolidation).

    uid, event, kind : identity; marker : clarity marker of the strength at recall; day : the day the owner
    believes (None when the ``when`` detail is lost; a fabricated day shows the fabricated day); true_day : the
    event's day; phase_name : the phase the event happened in; source_belief : the owner's belief about the source
    at the recall phase (a SourceType value, "unknown" once faded); teller : who the owner believes told them
    (after any misattribution); text : the memory rendered from its details, full length; template : its
    template (None for a memory stored without one: its text is shown as is); details : the details
    after reconsolidation; about : players the memory is about as the owner now believes
    (:func:`graphmem.model.details.believed_about`); strength : m at recall (ranks, filters and sets the marker);
    strength_after : m' after rehearsal; score, relevance, dense, lexical : ranking values in [0, 1];
    flashbulb, fabricated, misattributed : flags; lost : kinds of the lost details; conflicts : names of the
    players this memory holds an open conflict about; changes : what this recall did (model ``Change`` strings);
    emotion_json : the emotional context at encoding; witnesses : who was there (flashbulbs: the other witnesses but
    a murder's victim);
    own : the owner's own statement or action, shown without a source label ("You said ...", docs/model.md#source-memory);
    conflict_lines : (conflict uid, sentence) of each open conflict this memory holds, the sentence in a player's
    words ("Riley defended Casey on day 1 and accused Casey on day 3."), or for a conflict stored without one
    "You have conflicting memories about NAME."; source_route : float in [0, 1], how strongly the topic reached the
    memory through its remembered source (:func:`graphmem.recall.ranking.source_route`; 0 when the topic names nobody
    it came from); game, series_game : for a memory of an earlier game of the series (docs/model.md#series-of-games),
    that game's id and position in the series (int >= 1); None for a memory of the recall's own game.
    """

    uid: str
    event: str | None
    kind: str
    marker: Marker
    day: int | None
    true_day: int | None
    phase_name: str | None
    source_belief: str
    teller: str | None
    text: str
    template: str | None
    details: tuple[Detail, ...]
    about: tuple[str, ...]
    strength: float
    strength_after: float
    score: float
    relevance: float
    dense: float
    lexical: float
    flashbulb: bool
    summary: bool
    fabricated: bool
    misattributed: bool
    lost: tuple[str, ...]
    conflicts: tuple[str, ...]
    changes: tuple[str, ...]
    emotion_json: str
    witnesses: tuple[str, ...]
    own: bool = False
    conflict_lines: tuple[tuple[str, str], ...] = ()
    source_route: float = 0.0
    game: str | None = None
    series_game: int | None = None

    def detail(self, kind: DetailKind) -> Detail | None:
        """The first detail of ``kind``, or None."""
        return next((d for d in self.details if d.kind is kind), None)

    @property
    def who_lost(self) -> bool:
        """True when the owner no longer remembers who (a lost ``who`` detail)."""
        return any(d.kind is DetailKind.WHO and d.lost for d in self.details)


def participants_tuple(names: Sequence[str]) -> tuple[str, ...]:
    """Participant names, stripped, blanks dropped, duplicates removed (order kept)."""
    return tuple(dict.fromkeys(n.strip() for n in names if n and n.strip()))
