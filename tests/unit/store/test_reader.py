"""The store's reader of recall candidates (graphmem.store.reader): candidates brought up to date in place after a
logged write, and the second raise it leaves to its thread (the owner's next read waits for it, another owner's
does not; raises within the window go together; a failure is logged, never raised)."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import graphmem.store.reader as reader_module
from graphmem.store.reader import RAISE_WINDOW, HeldCandidates, MemoryReader
from graphmem.store.versions import PlannedWrite

Pair = tuple[str, str]


def held(uids: tuple[str, ...], version: int = 4, ns: tuple[int, ...] | None = None) -> HeldCandidates:
    count = len(uids)
    return HeldCandidates(incarnation="i", version=version, now=3, decayed_to=3,
                          ids=np.arange(count, dtype=np.int64), uids=uids, ns=ns or (0,) * count,
                          strengths=np.full(count, 0.5), flashbulbs=np.zeros(count, dtype=bool),
                          thresholds=np.full(count, 0.2))


def test_a_reader_holds_at_most_max_candidates_and_drops_the_owners_used_least_recently() -> None:
    reader = MemoryReader(5)
    reader.keep(("a",), held(("a1", "a2", "a3")))
    reader.keep(("b",), held(("b1", "b2")))
    reader.keep(("a",), held(("a1", "a2")))  # a's candidates replaced (4 held in all), a used last
    reader.keep(("c",), held(("c1", "c2")))  # 6 held: b, used least recently, goes, and only b
    assert reader.held(("b",)) is None
    assert [h.uids for h in (reader.held(("a",)), reader.held(("c",)))] == [("a1", "a2"), ("c1", "c2")]  # type: ignore[union-attr]
    reader.keep(("d",), held(("d1", "d2", "d3", "d4", "d5", "d6")))  # more than the reader holds: not kept
    assert reader.held(("d",)) is None and reader.held(("a",)) is not None
    reader.clear()
    reader.keep(("e",), held(("e1", "e2", "e3", "e4", "e5")))  # after a clear the whole room is free again
    assert reader.held(("e",)) is not None


def test_a_logged_write_that_keeps_every_memory_a_candidate_keeps_the_sequence_of_uids() -> None:
    before = held(("m0", "m1", "m2", "m3"))
    read = HeldCandidates(incarnation="i", version=6, now=3, decayed_to=3, ids=np.array([3, 1], dtype=np.int64),
                          uids=("m3", "m1"), ns=(2, 1), strengths=np.array([0.9, 0.7]),
                          flashbulbs=np.array([True, False]), thresholds=np.array([0.3, 0.2]))
    after = before.patched(6, ["m1", "m3"], read)
    # the same sequence, so the rows a process found for it stay valid (issue 40: no lookup of every uid again)
    assert after.uids is before.uids and after.version == 6
    assert after.ns == (0, 1, 0, 2) and after.strengths.tolist() == [0.5, 0.7, 0.5, 0.9]
    assert after.flashbulbs.tolist() == [False, False, False, True] and after.thresholds[3] == 0.3
    assert before.ns == (0, 0, 0, 0) and before.strengths.tolist() == [0.5] * 4  # shared by other recalls: unchanged


def test_a_logged_write_that_drops_or_adds_a_candidate_gives_the_candidates_now() -> None:
    before = held(("m0", "m1", "m2"))
    read = held(("m2", "m9"), version=6, ns=(1, 0))
    after = before.patched(6, ["m1", "m2", "m9"], read)  # m1 faded below every cue floor, m9 is new
    assert sorted(after.uids) == ["m0", "m2", "m9"] and dict(zip(after.uids, after.ns)) == {"m0": 0, "m2": 1, "m9": 0}
    assert len(after.ids) == len(after.strengths) == len(after.flashbulbs) == len(after.thresholds) == 3


def test_patches_in_a_row_find_the_memories_logged_by_their_place_in_the_sequence() -> None:
    before = held(tuple(f"m{i}" for i in range(6)))
    once = before.patched(5, ["m4"], held(("m4",), version=5, ns=(3,)))  # the same sequence: the places handed on
    assert once.uids is before.uids and once.positions is before.positions
    twice = once.patched(6, ["m1", "m4"], held(("m4",), version=6, ns=(4,)))  # m1 stops being a candidate
    assert twice.uids == ("m0", "m2", "m3", "m5", "m4") and twice.ns == (0, 0, 0, 0, 4)
    assert twice.positions == {"m0": 0, "m2": 1, "m3": 2, "m5": 3, "m4": 4}
    thrice = twice.patched(7, ["m2", "m7"], held(("m2",), version=7, ns=(1,)))  # m7: logged, never a candidate
    assert thrice.uids is twice.uids and thrice.ns == (0, 1, 0, 0, 4)


class _Writes:
    """Stands in for Neo4j in :meth:`MemoryReader.write`: the write returns at once with its first raise; each second
    raise is recorded and may be held back, or fail."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.raised: list[list[Pair]] = []
        self.release = threading.Event()
        self.release.set()
        self.failure: Exception | None = None

        def write(session: Any, game: str, owners: Any, query: str, planned: Any, check: Callable[[Any], Any], *,
                  raise_after: bool) -> tuple[Any, dict[Pair, int], dict[Pair, int]]:
            assert not raise_after  # a background reader makes the second raise itself
            return check(None), {(game, o): 5 for o in owners}, {}

        def raise_after_commit(driver: Any, database: Any, pairs: list[Pair]) -> dict[Pair, int]:
            assert self.release.wait(10)
            if self.failure is not None:
                raise self.failure
            self.raised.append(list(pairs))
            return dict.fromkeys(pairs, 6)

        monkeypatch.setattr(reader_module, "run_raising_versions", write)
        monkeypatch.setattr(reader_module, "raise_after_commit", raise_after_commit)

    def session(self, database: str | None = None, **config: Any) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Writes]:
    yield _Writes(monkeypatch)


def _write(reader: MemoryReader, writes: _Writes, owner: str, key: tuple[object, ...]) -> None:
    reader.write(writes, None, "game", [owner], "recall/write", PlannedWrite({}, {owner: ["m"]}),  # type: ignore[arg-type]
                 lambda record: 1, [key])


def test_the_owners_next_read_waits_for_the_second_raise_and_another_owners_does_not(writes: _Writes) -> None:
    reader = MemoryReader(background=True)
    mine, theirs = ("db", "game", "Marcus"), ("db", "game", "Priya")
    reader.keep(mine, held(("m0",)))
    writes.release.clear()
    _write(reader, writes, "Marcus", mine)
    assert reader.held(theirs) is None and writes.raised == []  # not waiting: the raise is still held back
    threading.Timer(0.2, writes.release.set).start()
    got = reader.held(mine)
    assert writes.raised == [[("game", "Marcus")]]  # it waited for the raise
    assert got is not None and got.version == 4  # and changed nothing held: the next read finds the change log


def test_second_raises_within_the_window_are_made_together_and_the_owners_read_cuts_it_short(writes: _Writes) -> None:
    reader = MemoryReader(background=True)
    mine, theirs = ("db", "game", "Marcus"), ("db", "game", "Priya")
    _write(reader, writes, "Marcus", mine)
    _write(reader, writes, "Priya", theirs)
    started = time.perf_counter()
    reader.held(mine)  # waits for the raise, and does not wait out the window
    assert time.perf_counter() - started < RAISE_WINDOW
    assert writes.raised == [[("game", "Marcus"), ("game", "Priya")]]  # one transaction, each version once


def test_a_failing_second_raise_is_logged_and_the_next_read_goes_on(writes: _Writes,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    reader, key = MemoryReader(background=True), ("db", "game", "Marcus")
    writes.failure = RuntimeError("Neo4j went away")
    with caplog.at_level(logging.ERROR, logger="graphmem.store.reader"):
        _write(reader, writes, "Marcus", key)
        assert reader.held(key) is None
        reader.settle()
    assert "Neo4j went away" in caplog.text and "read their candidates again" in caplog.text
