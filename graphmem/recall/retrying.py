"""Running a recall again when a concurrent recall wrote its memories first (the retry policy of
:meth:`graphmem.service.MemoryService.recall`).

A writing recall writes nothing when another recall changed one of its memories between its read and its write
(:class:`~graphmem.errors.RecallConflict`); run again on the new state, it counts every access (each memory's ``n``
counts every writing recall that returned it). Concurrent recalls of one player (an agent calling tools in
parallel, two engines) meet so; :func:`until_written` runs one through tenacity with the pause measured for them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from graphmem.errors import RecallConflict

RECALL_ATTEMPTS = 10
"""Attempts of one recall that meets concurrent recalls of the same memories."""
RECALL_PAUSE = 0.004
"""The longest pause, in seconds, before the second attempt, unless the failed attempt took longer: the pause is
then that attempt's duration, so that the writers of one player spread over more than one recall's time; it doubles
each time (full jitter: uniform in [0, pause]), at most :data:`RECALL_LONGEST_PAUSE` each. (Eight concurrent
writers of one player whose attempts take 40-100 ms each met again and again behind pauses of 4-16 ms: one call in
a few hundred used up its ten attempts.)"""
RECALL_LONGEST_PAUSE = 1.0
"""The longest single pause between two attempts of one recall, in seconds."""
_JITTER = random.SystemRandom()

R = TypeVar("R")


def until_written(attempt: Callable[[], R], on_retry: Callable[[], None] = lambda: None) -> R:
    """``attempt()`` (a recall), run again after each RecallConflict, up to :data:`RECALL_ATTEMPTS` times, with the
    pause of :data:`RECALL_PAUSE`; ``on_retry()`` before each pause (the service counts them). Returns what the
    first attempt that met no conflict returned; raises RecallConflict when every attempt met one, and anything
    else an attempt raises at once."""
    pause = RECALL_PAUSE
    started = time.monotonic()

    def begin(_: RetryCallState) -> None:
        nonlocal started
        started = time.monotonic()

    def wait(state: RetryCallState) -> float:
        nonlocal pause
        on_retry()
        pause = min(max(pause, (state.outcome_timestamp or time.monotonic()) - started), RECALL_LONGEST_PAUSE)
        chosen = _JITTER.uniform(0.0, pause)
        pause *= 2
        return chosen

    return Retrying(retry=retry_if_exception_type(RecallConflict), stop=stop_after_attempt(RECALL_ATTEMPTS),
                    wait=wait, before=begin, reraise=True)(attempt)
