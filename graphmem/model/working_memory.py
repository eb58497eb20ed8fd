"""Working memory: the few thoughts a player holds in mind right now (docs/model.md#working-memory).

Capacity is small (Cowan 2001: about 4 chunks; every shipped profile holds 4 +/- 1, a user's profile 3-7). Each
item lives for ``persistence`` phases from the phase it was pushed: it expires at ``expires_phase = pushed_phase +
persistence``, so the state at any phase is a pure function of the pushes (idempotent, like decay). Beyond
capacity the lowest-priority item is displaced, the oldest first among equals; a displaced item does not come
back when others expire.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graphmem.errors import UsageProblem
from graphmem.model._checks import check_unit
from graphmem.model.params import Parameters, resolve

__all__ = ["WorkingMemoryItem", "active_items", "advance", "automatic_item", "focus", "push"]


@dataclass(frozen=True)
class WorkingMemoryItem:
    """One active thought (the graph's Thought node).

    content : str; priority : float in [0, 1]; persistence : int >= 0, phases it stays from its push;
    trigger : str, the event uid, "api", "flashbulb" or "accusation"; pushed_phase : int; seq : int, a
    push-order number that breaks ties between pushes of one phase (larger is newer).
    Raises UsageProblem for a priority outside [0, 1] or a negative persistence.
    """

    content: str
    priority: float
    persistence: int
    trigger: str
    pushed_phase: int
    seq: int = 0

    def __post_init__(self) -> None:
        check_unit("priority", self.priority)
        if self.persistence < 0:
            raise UsageProblem(f"persistence must be >= 0 phases, got {self.persistence!r}")

    @property
    def expires_phase(self) -> int:
        """The first phase at which the item is gone: pushed_phase + persistence."""
        return self.pushed_phase + self.persistence

    def persistence_left(self, t: int) -> int:
        """Phases the item still has at phase ``t`` (0 once expired)."""
        return max(0, self.expires_phase - max(t, self.pushed_phase))

    def alive_at(self, t: int) -> bool:
        """Pushed by phase ``t`` and not yet expired."""
        return self.pushed_phase <= t < self.expires_phase


def _order(item: WorkingMemoryItem) -> tuple[int, int]:
    return item.pushed_phase, item.seq


def automatic_item(content: str, trigger: str, phase: int, seq: int = 0,
                   params: Parameters | None = None) -> WorkingMemoryItem:
    """An item pushed automatically by a flashbulb event or an accusation against the owner: priority 0.9,
    persistence 2 phases (docs/model.md#working-memory)."""
    w = resolve(params).working_memory
    return WorkingMemoryItem(content, w.automatic_priority, w.automatic_persistence, trigger, phase, seq)


def advance(items: Iterable[WorkingMemoryItem], t: int) -> tuple[WorkingMemoryItem, ...]:
    """The items still held at phase ``t``: each phase lowers persistence by one and expired items go."""
    return tuple(i for i in items if i.alive_at(t))


def push(items: Iterable[WorkingMemoryItem], item: WorkingMemoryItem,
         capacity: int) -> tuple[WorkingMemoryItem, ...]:
    """Working memory after pushing ``item`` (at its ``pushed_phase``), in push order.

    Items expired at that phase go first (the new one too, if its persistence is 0); then, beyond ``capacity``
    (int >= 1, the profile's WorkingMemoryCapacity), the lowest-priority items are displaced, oldest first on
    ties (the new item too, if it has the lowest priority). Raises UsageProblem for capacity < 1.
    """
    if capacity < 1:
        raise UsageProblem(f"working-memory capacity must be >= 1, got {capacity!r}")
    held = sorted(advance((*items, item), item.pushed_phase), key=_order)
    while len(held) > capacity:
        held.remove(min(held, key=lambda i: (i.priority, _order(i))))
    return tuple(held)


def active_items(pushes: Iterable[WorkingMemoryItem], t: int, capacity: int) -> tuple[WorkingMemoryItem, ...]:
    """Working memory at phase ``t`` from every push ever made (closed form of repeated push/advance).

    pushes : all items of a player, in any order; t : int, the phase asked about; capacity : int >= 1.
    Replays the pushes made up to ``t`` in (pushed_phase, seq) order, so the result depends only on the
    pushes and ``t``: asking twice, or at intermediate phases first, changes nothing.
    """
    held: tuple[WorkingMemoryItem, ...] = ()
    for item in sorted((i for i in pushes if i.pushed_phase <= t), key=_order):
        held = push(held, item, capacity)
    return advance(held, t)


def focus(items: Sequence[WorkingMemoryItem]) -> WorkingMemoryItem | None:
    """The current focus: the highest-priority item, the newest on ties; None when empty (docs/model.md#working-memory)."""
    return max(items, key=lambda i: (i.priority, _order(i)), default=None)
