"""The work a writing recall leaves to its process's own thread (EmbeddingCache.settle_later, raise_later): the owner's next
read of what the process holds waits for it, another owner's does not, and a failure is logged, never raised."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping

import numpy as np
import pytest

from graphmem.recall.vectors import RAISE_WINDOW, EmbeddingCache, HeldCandidates


def held(version: int) -> HeldCandidates:
    return HeldCandidates(incarnation="i", version=version, now=3, decayed_to=3, ids=np.array([7], dtype=np.int64),
                          uids=("g/m/1",), ns=(1,), strengths=np.array([0.8]), flashbulbs=np.array([False]),
                          thresholds=np.array([0.2]))


def test_the_owners_next_read_waits_for_the_work_and_another_owners_does_not() -> None:
    cache = EmbeddingCache()
    mine, theirs = ("db", "game", "Marcus"), ("db", "game", "Priya")
    cache.keep_candidates(mine, held(4))
    release = threading.Event()

    def work() -> None:  # as a second raise that takes a while, then brings the held candidates to its version
        assert release.wait(10)
        cache.keep_candidates(mine, held(6))

    cache.settle_later([mine], work)
    assert cache.held_candidates(theirs) is None  # not waiting: the work is still blocked
    threading.Timer(0.2, release.set).start()
    got = cache.held_candidates(mine)
    assert got is not None and got.version == 6


def test_work_runs_in_the_order_given_and_settle_waits_for_every_key() -> None:
    cache, done = EmbeddingCache(), []

    def note(i: int) -> Callable[[], None]:
        return lambda: done.append(i)

    for i in range(5):
        cache.settle_later([("k", i % 2)], note(i))
    cache.settle()
    assert done == [0, 1, 2, 3, 4]


def test_a_failing_work_is_logged_and_the_next_read_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    cache, key = EmbeddingCache(), ("db", "game", "Marcus")

    def fails() -> None:
        raise RuntimeError("Neo4j went away")

    with caplog.at_level(logging.ERROR, logger="graphmem.recall.vectors"):
        cache.settle_later([key], fails)
        assert cache.held_candidates(key) is None
    assert "Neo4j went away" in caplog.text and "reads its candidates again" in caplog.text


def test_second_raises_within_the_window_are_made_together_and_the_owners_read_cuts_it_short() -> None:
    cache = EmbeddingCache()
    calls: list[list[tuple[str, str]]] = []
    got: list[Mapping[tuple[str, str], int | None]] = []
    mine, theirs = ("db", "game", "Marcus"), ("db", "game", "Priya")

    def raise_all(pairs: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
        calls.append(pairs)
        return {pair: 7 for pair in pairs}

    cache.raise_later([mine], [("game", "Marcus")], raise_all, got.append)
    cache.raise_later([theirs], [("game", "Priya"), ("game", "Marcus")], raise_all, got.append)
    started = time.perf_counter()
    cache.held_candidates(mine)  # waits for the raise, and does not wait out the window
    assert time.perf_counter() - started < RAISE_WINDOW
    assert calls == [[("game", "Marcus"), ("game", "Priya")]]  # one transaction, each version once
    assert got == [{("game", "Marcus"): 7}, {("game", "Priya"): 7, ("game", "Marcus"): 7}]


def test_a_failing_second_raise_gives_every_recall_of_its_batch_no_version(caplog: pytest.LogCaptureFixture) -> None:
    cache = EmbeddingCache()
    got: list[Mapping[tuple[str, str], int | None]] = []

    def fails(pairs: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
        raise RuntimeError("Neo4j went away")

    with caplog.at_level(logging.ERROR, logger="graphmem.recall.vectors"):
        cache.raise_later([("k",)], [("game", "Marcus")], fails, got.append)
        cache.settle()
    assert got == [{("game", "Marcus"): None}] and "Neo4j went away" in caplog.text
