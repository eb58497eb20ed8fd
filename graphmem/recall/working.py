"""Working memory at the recall phase (docs/model.md#working-memory): which of the player's thoughts are held, the
focus first.

At ``Game.decayed_to`` the decay job has already marked the held thoughts (``Thought.active``, computed with the
same :func:`graphmem.model.working_memory.active_items`), so they are read as they are. At an earlier phase the
Thought nodes pushed by then are replayed with ``active_items`` and the player's capacity (``Player.wm_capacity``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.model.working_memory import WorkingMemoryItem, active_items, focus
from graphmem.recall.types import ActiveThought

__all__ = ["active_thoughts"]


def active_thoughts(rows: Sequence[Mapping[str, Any]], now: int, capacity: int,
                    already_active: bool = False) -> tuple[ActiveThought, ...]:
    """The thoughts held at phase ``now``: the focus (highest priority, newest on ties) first, then by priority,
    newest first.

    rows : maps with uid, content, priority, persistence, pushed_phase, seq, trigger (Thought properties);
    capacity : int >= 1, the player's working-memory capacity; already_active : the rows are the thoughts the
    decay job marked active at ``now`` (``Thought.active`` at ``Game.decayed_to``), so no replay is needed.
    """
    items: list[tuple[str, WorkingMemoryItem]] = []
    for row in rows:
        if row.get("uid") is None:
            continue
        items.append((str(row["uid"]), WorkingMemoryItem(
            content=str(row.get("content") or ""), priority=float(row.get("priority") or 0.0),
            persistence=int(row.get("persistence") or 0), trigger=str(row.get("trigger") or ""),
            pushed_phase=int(row.get("pushed_phase") or 0), seq=int(row.get("seq") or 0))))
    held = tuple(item for _, item in items) if already_active else \
        active_items([item for _, item in items], now, capacity)
    uid_of = {id(item): uid for uid, item in items}
    top = focus(held)
    ordered = sorted(held, key=lambda i: (i is not top, -i.priority, -i.pushed_phase, -i.seq))
    return tuple(ActiveThought(uid_of[id(i)], i.content, i.priority, i.trigger, i.pushed_phase, i is top)
                 for i in ordered)
