"""Argument checks shared by the model functions: each raises UsageProblem naming the argument."""

from __future__ import annotations

import math

from graphmem.errors import UsageProblem


def check_unit(name: str, x: float) -> float:
    """``x`` if it lies in [0, 1]."""
    if not 0.0 <= x <= 1.0:
        raise UsageProblem(f"{name} must be in [0, 1], got {x!r}")
    return x


def check_positive(name: str, x: float) -> float:
    """``x`` if it is finite and > 0."""
    if not (x > 0.0 and math.isfinite(x)):
        raise UsageProblem(f"{name} must be a finite number > 0, got {x!r}")
    return x


def check_nonnegative(name: str, x: float) -> float:
    """``x`` if it is >= 0 (elapsed phases, access counts)."""
    if not x >= 0:
        raise UsageProblem(f"{name} must be >= 0, got {x!r}")
    return x
