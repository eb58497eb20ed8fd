"""A recall that met a concurrent write runs again (graphmem.recall.retrying.until_written): every retry is
counted, the first attempt that writes is the answer, and one that never does raises RecallConflict after ten."""

from __future__ import annotations

import pytest

from graphmem.errors import NotFound, RecallConflict
from graphmem.recall.retrying import RECALL_ATTEMPTS, until_written


def test_a_recall_is_run_again_until_it_writes_and_each_retry_is_counted() -> None:
    attempts: list[int] = []
    retries: list[int] = []

    def attempt() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise RecallConflict("a concurrent recall wrote first")
        return "written"

    assert until_written(attempt, lambda: retries.append(1)) == "written"
    assert (len(attempts), len(retries)) == (3, 2)


def test_ten_conflicts_raise_the_last_and_other_errors_are_not_retried() -> None:
    attempts: list[int] = []

    def always() -> None:
        attempts.append(1)
        raise RecallConflict(f"conflict {len(attempts)}")

    with pytest.raises(RecallConflict, match=f"conflict {RECALL_ATTEMPTS}"):
        until_written(always)
    assert len(attempts) == RECALL_ATTEMPTS == 10

    def unknown() -> None:
        attempts.append(1)
        raise NotFound("no player 'Zed'")

    attempts.clear()
    with pytest.raises(NotFound):
        until_written(unknown)
    assert len(attempts) == 1
