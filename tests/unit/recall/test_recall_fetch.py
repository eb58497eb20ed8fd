"""The rows :meth:`EmbeddingCache.fetch` finds for an owner's held candidates: kept between recalls of the same
candidates (an owner of 10,000 spent 5-7 ms of every recall looking them up), never returned for a memory whose access
count has moved since, whichever way it moved."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from graphmem.recall.vectors import MEMO_MIN, NO_SOURCE, EmbeddingCache

GAME, INCARNATION = "g", "inc-1"


class _Store(EmbeddingCache):
    """A cache whose reads of Neo4j return the access counts of ``store`` (the test's store), recording what each
    read asked for."""

    def __init__(self, store: dict[str, int]) -> None:
        super().__init__()
        self.store, self.asked = store, list[list[str]]()

    def _read(self, driver: Any, database: str | None, uids: list[str]) -> list[Any]:
        self.asked.append(uids)
        text = np.ones(8, dtype=np.float32) / np.sqrt(8.0)
        return [(u, text, (), self.store[u], NO_SOURCE, (u, None, None), (None, 0), float("nan")) for u in uids]


def _held(size: int) -> tuple[_Store, tuple[str, ...], tuple[int, ...]]:
    uids = tuple(f"m{i}" for i in range(size))
    cache = _Store(dict.fromkeys(uids, 0))
    return cache, uids, (0,) * size


def _fetch(cache: EmbeddingCache, uids: Sequence[str], ns: Sequence[int]) -> npt.NDArray[np.intp]:
    vectors, rows = cache.fetch(None, None, GAME, INCARNATION, uids, ns)  # type: ignore[arg-type]  # never reads
    assert [vectors.n[r] for r in rows] == list(ns)  # every row at the access count asked
    assert [vectors.rows[u] for u in uids] == rows.tolist()
    return rows


def test_the_same_candidates_get_the_same_rows_without_looking_them_up_again() -> None:
    cache, uids, ns = _held(MEMO_MIN + 44)
    first = _fetch(cache, uids, ns)
    again = _fetch(cache, uids, ns)
    assert again is first and not again.flags.writeable  # shared by every recall: nobody may change it
    assert cache.asked == [list(uids)]
    # a copy of the same uids is another sequence: looked up again, the same rows
    assert np.array_equal(_fetch(cache, tuple(list(uids)), ns), first) and len(cache.asked) == 1


def _recued(uid: str, n: int) -> dict[str, Any]:
    """What the reader's read after a write gives of a memory it logged (``recall/context``'s ``recued``)."""
    return {"uid": uid, "n": n, "speaker": None, "c0": None, "source_k": None, "t_enc": None, "s_enc": None,
            "own": False, "flashbulb": False, "misattributed": False, "text": uid, "keywords": None}


@pytest.mark.parametrize("recued", [True, False])
def test_a_memory_whose_access_count_moved_is_taken_as_read_or_read_again(recued: bool) -> None:
    cache, uids, ns = _held(MEMO_MIN + 10)
    rows = _fetch(cache, uids, ns)
    cache.store["m7"] = 1
    written = tuple(1 if u == "m7" else n for u, n in zip(uids, ns))
    if recued:
        # the read after a write (this process's or another's) names the memory it changed with its new count and
        # cues: its row is brought up to date from that read, and its embedding is not read again
        assert cache.recued(None, GAME, INCARNATION, [_recued("m7", 1)]) == 1
    # the candidates name the new count: only a memory not brought up to date is read
    assert np.array_equal(_fetch(cache, uids, written), rows)
    assert cache.asked[1:] == ([] if recued else [["m7"]])
    assert _fetch(cache, uids, written) is _fetch(cache, uids, written)
    assert len(cache.asked) == (1 if recued else 2)


def test_a_count_moved_under_the_same_held_candidates_is_read_again() -> None:
    # the candidates a process holds still name count 0 while a read moved the row to 1 (another owner's candidates
    # of the same game were read after the write): the row is not taken as it is
    cache, uids, ns = _held(MEMO_MIN)
    _fetch(cache, uids, ns)
    cache.recued(None, GAME, INCARNATION, [_recued("m3", 1)])
    _fetch(cache, uids, ns)
    assert cache.asked[-1] == ["m3"]


def test_few_candidates_are_looked_up_every_time() -> None:
    cache, uids, ns = _held(MEMO_MIN - 1)
    assert _fetch(cache, uids, ns) is not _fetch(cache, uids, ns)
    assert not cache._games[(None, GAME, INCARNATION)].fetched
