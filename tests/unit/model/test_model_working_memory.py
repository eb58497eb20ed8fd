"""Working memory: capacity, displacement, expiry and the closed form (docs/model.md#working-memory)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import UsageProblem
from graphmem.model.working_memory import WorkingMemoryItem, active_items, advance, automatic_item, focus, push


def item(content: str, priority: float, phase: int = 0, persistence: int = 5, seq: int = 0) -> WorkingMemoryItem:
    return WorkingMemoryItem(content, priority, persistence, "api", phase, seq)


def test_expiry_after_persistence_phases() -> None:
    a = item("a", 0.5, phase=3, persistence=2)
    assert [a.alive_at(t) for t in (2, 3, 4, 5)] == [False, True, True, False]
    assert [a.persistence_left(t) for t in (3, 4, 5)] == [2, 1, 0]
    assert advance((a,), 4) == (a,) and advance((a,), 5) == ()


def test_lowest_priority_goes_oldest_first_on_ties() -> None:
    held: tuple[WorkingMemoryItem, ...] = ()
    for i, p in enumerate([0.5, 0.3, 0.3, 0.8]):
        held = push(held, item(f"t{i}", p, seq=i), capacity=4)
    held = push(held, item("new", 0.6, seq=4), capacity=4)
    assert [i.content for i in held] == ["t0", "t2", "t3", "new"]  # t1 and t2 tie at 0.3: the older t1 goes
    held = push(held, item("low", 0.1, seq=5), capacity=4)
    assert "low" not in [i.content for i in held]                   # the newcomer itself is the lowest


def test_focus_is_the_highest_priority_newest_on_ties() -> None:
    a, b, c = item("a", 0.9, seq=0), item("b", 0.9, seq=1), item("c", 0.2, seq=2)
    assert focus((a, b, c)) == b and focus(()) is None


def test_automatic_items_and_validation() -> None:
    auto = automatic_item("Thomas accused you", "accusation", phase=4, seq=9)
    assert (auto.priority, auto.persistence, auto.expires_phase, auto.trigger) == (0.9, 2, 6, "accusation")
    with pytest.raises(UsageProblem):
        item("x", 1.5)
    with pytest.raises(UsageProblem):
        push((), item("x", 0.5), capacity=0)


pushes = st.lists(st.tuples(st.floats(0.0, 1.0), st.integers(0, 4), st.integers(0, 5)), max_size=25)


def _history(spec: list[tuple[float, int, int]]) -> list[WorkingMemoryItem]:
    phase, out = 0, []
    for seq, (priority, gap, persistence) in enumerate(spec):
        phase += gap
        out.append(WorkingMemoryItem(f"t{seq}", priority, persistence, "api", phase, seq))
    return out


@given(pushes, st.integers(4, 7))
def test_capacity_is_never_exceeded_and_displaced_items_are_the_lowest(spec: list[tuple[float, int, int]],
                                                                       capacity: int) -> None:
    held: tuple[WorkingMemoryItem, ...] = ()
    for new in _history(spec):
        before = advance((*held, new), new.pushed_phase)
        held = push(held, new, capacity)
        assert len(held) <= capacity
        gone = [i for i in before if i not in held]
        assert len(gone) == max(0, len(before) - capacity)
        for g in gone:
            for kept in held:
                assert (g.priority, g.seq) < (kept.priority, kept.seq)


@given(pushes, st.integers(4, 7))
def test_state_at_a_phase_is_a_pure_function_of_the_pushes(spec: list[tuple[float, int, int]], capacity: int) -> None:
    history = _history(spec)
    last = max((i.pushed_phase for i in history), default=0) + 6
    held: tuple[WorkingMemoryItem, ...] = ()
    by_phase = {}
    for t in range(last + 1):
        held = advance(held, t)
        for new in (i for i in history if i.pushed_phase == t):
            held = push(held, new, capacity)
        by_phase[t] = held
    for t in reversed(range(last + 1)):  # any order of asking, any number of times
        assert active_items(history, t, capacity) == by_phase[t] == active_items(reversed(history), t, capacity)
    assert active_items(history, last, capacity) == ()
