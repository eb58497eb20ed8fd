"""The result of one recall: what the agent reads, as the prompt block (:mod:`.prompt`) and as JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from graphmem.recall import prompt
from graphmem.recall.types import ActiveThought, RecalledMemory

__all__ = ["RecallResult"]


def _memory_dict(memory: RecalledMemory, number: int, owner: str) -> dict[str, Any]:
    return {
        "number": number, "uid": memory.uid, "event": memory.event, "kind": memory.kind,
        "marker": str(memory.marker), "game": memory.game, "series_game": memory.series_game,
        "day": memory.day, "true_day": memory.true_day,
        "phase_name": memory.phase_name, "source": memory.source_belief,
        "source_label": prompt.source_label(memory), "teller": memory.teller, "text": memory.text,
        "line": prompt.memory_text(memory, owner), "about": list(memory.about),
        "strength": memory.strength, "strength_after": memory.strength_after, "score": memory.score,
        "relevance": memory.relevance, "dense": memory.dense, "lexical": memory.lexical,
        "source_route": memory.source_route,
        "flags": {"flashbulb": memory.flashbulb, "summary": memory.summary, "lost_details": list(memory.lost),
                  "fabricated": memory.fabricated, "misattributed": memory.misattributed, "own": memory.own,
                  "conflict": list(memory.conflicts)},
        "conflicts": [line[1:-1] for _, line in prompt.conflict_lines(memory)],
        "changes": list(memory.changes),
    }


@dataclass(frozen=True)
class RecallResult:
    """The memory context of one player for one dialogue (docs/prompt.md, docs/prompt.md).

    game, player : str; phase : int, the recall phase ``now``; decayed_to : int, the game's phase; topic,
    participants, k, seed : as asked (k resolved); dry_run : bool, nothing was to be written (asked, or implied by
    an earlier ``at``); written : int, memories whose reconsolidation was written; candidates : int, the owner's
    live memories considered; thoughts : active working-memory items, the focus first; memories : the recalled
    memories in prompt order (flashbulbs, then CLEAR, FUZZY, VAGUE, each band by score); vivid : the most relevant
    recalled flashbulb (highest score) or None; timings : seconds per stage (embed, read, rank, similar,
    reconsolidate, write, total), not part of the JSON so that replays compare equal; cpu_timings : the same stages
    in CPU seconds of the calling thread (``time.thread_time``: the topic's forward pass runs on the model's own
    thread and the second raise of a writing recall may run on the cache's, so neither is in them), not in the JSON
    either.
    """

    game: str
    player: str
    phase: int
    decayed_to: int
    topic: str | None
    participants: tuple[str, ...]
    k: int
    seed: int
    dry_run: bool
    written: int
    candidates: int
    thoughts: tuple[ActiveThought, ...]
    memories: tuple[RecalledMemory, ...]
    vivid: RecalledMemory | None
    timings: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    cpu_timings: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}), compare=False)

    @property
    def empty(self) -> bool:
        """True when there is nothing to show (no active thought and no recalled memory): the block is ""."""
        return not self.thoughts and not self.memories

    def prompt(self) -> str:
        """The prompt block of docs/prompt.md (see :func:`graphmem.recall.prompt.render_block`)."""
        return prompt.render_block(self)

    def as_dict(self) -> dict[str, Any]:
        """The same content as the prompt block, as a JSON-ready dict (the format of ``to_json``)."""
        vivid = None
        if self.vivid is not None:
            vivid = {"uid": self.vivid.uid, "lines": prompt.vivid_lines(self.vivid)}
        return {
            "game": self.game, "player": self.player, "phase": self.phase, "decayed_to": self.decayed_to,
            "topic": self.topic, "participants": list(self.participants), "k": self.k, "seed": self.seed,
            "dry_run": self.dry_run, "written": self.written, "candidates": self.candidates,
            "thoughts": [{"uid": t.uid, "content": t.content, "priority": t.priority, "trigger": t.trigger,
                          "pushed_phase": t.pushed_phase, "focus": t.focus} for t in self.thoughts],
            "vivid": vivid,
            "memories": [_memory_dict(m, i, self.player) for i, m in enumerate(self.memories, start=1)],
            "prompt": self.prompt(),
        }

    def agent_dict(self) -> dict[str, Any]:
        """:meth:`as_dict` as the player's own agent may read it (the service's answer to a player token): without
        what only the ground truth knows of each memory — its true day (``true_day``), whether a detail was
        fabricated or the teller misattributed (``flags.fabricated``, ``flags.misattributed``) and what this recall
        changed (``changes``, which names imported details). The prompt block never shows them either."""
        data = self.as_dict()
        for memory in data["memories"]:
            memory.pop("true_day", None)
            memory.pop("changes", None)
            memory["flags"].pop("fabricated", None)
            memory["flags"].pop("misattributed", None)
        return data

    def to_json(self, indent: int | None = 2) -> str:
        """``as_dict()`` as JSON text (UTF-8 characters kept)."""
        return json.dumps(self.as_dict(), indent=indent, ensure_ascii=False)
