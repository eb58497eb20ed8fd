"""Hand-built recalled memories for the prompt tests (imported by file name)."""

from __future__ import annotations

from typing import Any

from graphmem.model.details import Detail, render
from graphmem.model.vocabulary import Marker
from graphmem.recall.result import RecallResult
from graphmem.recall.types import ActiveThought, RecalledMemory


def memory(uid: str, marker: Marker, template: str | None, details: tuple[Detail, ...], *, day: int | None = 3,
           source: str = "first_hand", teller: str | None = None, score: float = 0.5, **extra: Any) -> RecalledMemory:
    values: dict[str, Any] = dict(
        uid=uid, event=uid.rsplit("/", 1)[-1], kind="say", marker=marker, day=day, true_day=day,
        phase_name="roundtable", source_belief=source, teller=teller,
        text=render(template, details) if template is not None else "", template=template, details=details,
        about=(), strength=0.5, strength_after=0.52, score=score, relevance=0.0, dense=0.0, lexical=0.0,
        flashbulb=marker is Marker.FLASHBULB, summary=False, fabricated=any(d.fabricated for d in details),
        misattributed=False, lost=tuple(str(d.kind) for d in details if d.lost), conflicts=(), changes=(),
        emotion_json="{}", witnesses=())
    values.update(extra)
    return RecalledMemory(**values)


def result(memories: tuple[RecalledMemory, ...] = (), thoughts: tuple[ActiveThought, ...] = (),
           vivid: RecalledMemory | None = None, player: str = "Anna") -> RecallResult:
    return RecallResult(game="g", player=player, phase=5, decayed_to=5, topic=None, participants=(), k=10, seed=0,
                        dry_run=True, written=0, candidates=len(memories), thoughts=thoughts, memories=memories,
                        vivid=vivid)
