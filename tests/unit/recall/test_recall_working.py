"""Working memory at the recall phase (docs/model.md#working-memory): the thoughts held then, the focus first."""

from __future__ import annotations

from typing import Any

from graphmem.recall.working import active_thoughts


def thought(uid: str, priority: float, pushed: int, persistence: int = 3, seq: int = 0) -> dict[str, Any]:
    return {"uid": uid, "content": f"thought {uid}", "priority": priority, "persistence": persistence,
            "pushed_phase": pushed, "seq": seq, "trigger": "api"}


def test_focus_first_then_priority_then_newest() -> None:
    rows = [thought("a", 0.5, 1, seq=1), thought("b", 0.9, 2, seq=2), thought("c", 0.5, 2, seq=3),
            thought("d", 0.7, 0, persistence=1, seq=0)]
    held = active_thoughts(rows, 2, 4)
    assert [t.uid for t in held] == ["b", "c", "a"]  # d expired at phase 1
    assert [t.focus for t in held] == [True, False, False]


def test_capacity_and_phase_are_applied() -> None:
    rows = [thought(str(i), 0.1 * i, i, seq=i) for i in range(1, 7)]
    assert [t.uid for t in active_thoughts(rows, 6, 4)] == ["6", "5", "4"]
    assert [t.uid for t in active_thoughts(rows, 1, 4)] == ["1"]
    assert active_thoughts([], 3, 4) == ()
    assert active_thoughts([{"uid": None}], 3, 4) == ()


def test_thoughts_marked_active_by_the_decay_job_are_taken_as_they_are() -> None:
    rows = [thought("a", 0.5, 1, seq=1), thought("b", 0.9, 1, seq=2)]
    held = active_thoughts(rows, 9, 4, already_active=True)  # expired by replay, but the decay job says active
    assert [t.uid for t in held] == ["b", "a"] and held[0].focus
