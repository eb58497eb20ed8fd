"""Forgetting curves and the closed-form strength of a memory at any phase (docs/model.md#forgetting).

A memory keeps the strength it had at its last reinforcement (``e_ref`` at phase ``t_ref``) and its stability
``S``; its strength at phase ``t`` is ``e_ref * R(t - t_ref, S)``. Because the state is never overwritten by
decay, evaluating any phase any number of times gives the same value (decay is idempotent), unlike the seed's
running product (docs/model.md#defects-of-the-seed-formulas). The curve's one Cypher home,
``cypher/fragments/retention.cypher`` (used by the decay job, recall and analysis queries), must agree with
:func:`retention` (tests/integration/test_forgetting_copies.py).

Curves, both with retention 1/2 at the half-life ``S ln 2``:

- ``power`` (the default): R = (1 + 3 dt / (S ln 2))^(-1/2), the heavier tail of human data (Wixted & Ebbesen
  1991; the same shape as FSRS, Ye, Su & Cao 2022). The exponent -1/2 fixes the shape and the 3 = 2^2 - 1 puts
  the half-life at S ln 2; they are the curve's definition, not tunable parameters.
- ``exponential``: R = exp(-dt / S) (Ebbinghaus 1885; Murre & Dros 2015 replicated the curve).

A recall sets a new reference (``e_ref`` = the rehearsed strength, ``t_ref`` = now) and grows S
(:func:`stability_after_recall`, docs/model.md#forgetting) so that the memory is never weaker at any later phase than without
the recall (the testing effect), and gains more the more it had faded (the spacing effect).
"""

from __future__ import annotations

import math

from graphmem.errors import UsageProblem
from graphmem.model._checks import check_nonnegative, check_positive

__all__ = ["CURVES", "half_life", "retention", "stability_after_recall", "stability_gain", "strength_at"]

CURVES = ("exponential", "power")
DEFAULT_CURVE = "power"


def _check_stability(s: float) -> float:
    """``s`` if it is > 0; infinite stability (a profile that never forgets, ``base_decay_rate = 0``) is allowed."""
    if math.isinf(s) and s > 0:
        return s
    return check_positive("s", s)


def half_life(s: float) -> float:
    """Phases until retention falls to 1/2 on either curve: S ln 2 (infinite for S = inf). s : stability in
    phases, > 0."""
    return _check_stability(s) * math.log(2.0)


def retention(dt: float, s: float, curve: str = DEFAULT_CURVE) -> float:
    """Retention R in [0, 1] (0 only by floating-point underflow) after ``dt`` phases at stability ``s``
    (docs/model.md#forgetting).

    dt : float >= 0, elapsed phases; s : float > 0, stability in phases (inf: a memory that never fades, R = 1);
    curve : "exponential" or "power". R(0) = 1; R falls with dt and rises with s; R(S ln 2) = 1/2 on both curves.
    Source: Ebbinghaus 1885 / Murre & Dros 2015 (exponential), Wixted & Ebbesen 1991 (power).
    Raises UsageProblem for dt < 0, s <= 0 or an unknown curve.
    """
    check_nonnegative("dt", dt)
    _check_stability(s)
    if curve not in CURVES:
        raise UsageProblem(f"unknown forgetting curve {curve!r} (known: {', '.join(CURVES)})")
    if math.isinf(s):
        return 1.0
    if curve == "exponential":
        return math.exp(-dt / s)
    if curve == "power":
        return math.pow(1.0 + 3.0 * dt / (s * math.log(2.0)), -0.5)
    raise UsageProblem(f"unknown forgetting curve {curve!r} (known: {', '.join(CURVES)})")


def strength_at(e_ref: float, t_ref: float, s: float, t: float, curve: str = DEFAULT_CURVE,
                floor: float = 0.0) -> float:
    """Strength m(t) = max(floor, e_ref * R(t - t_ref, s)), in [floor, e_ref] (docs/model.md#forgetting,
    docs/model.md#flashbulb-memories).

    e_ref : float in [0, 1], strength at the last reinforcement; t_ref : its phase; s : stability, phases;
    t : the phase asked about, >= t_ref; floor : the displayed minimum, 0.8 for flashbulbs
    (docs/model.md#flashbulb-memories), else 0.
    Closed form: the result depends only on the stored state and t, never on earlier evaluations.
    Raises UsageProblem for t < t_ref, s <= 0 or an unknown curve.
    """
    return max(floor, e_ref * retention(t - t_ref, s, curve))


def stability_gain(r_now: float, curve: str = DEFAULT_CURVE, rehearsal_gain: float = 1.0) -> float:
    """The factor S'/S of a recall, g(R) * (1 + rehearsal_gain * (1 - R)), >= 1 (docs/model.md#forgetting).

    r_now : float in [0, 1] (> 0 on the power curve), the retention since the last reinforcement at the moment of
    recall, R(now - t_ref, S);
    g = R^-2 on the power curve (the least growth that keeps the recalled memory at or above the unrecalled one
    at every later phase: with it the recalled curve from ``now`` is the old curve from ``t_ref`` compressed in
    time), g = 1 on the exponential curve (whose shape does not depend on where on the curve one stands);
    rehearsal_gain : float >= 0, ``parameters.reconsolidation.rehearsal_gain`` (1.0).
    Non-increasing in r_now: the more the memory had faded, the more a recall gains (the spacing effect, Cepeda
    et al. 2006); 1 at r_now = 1, so a second recall in the same phase gains nothing more.
    Source: docs/model.md#forgetting; Roediger & Karpicke 2006 (testing effect); the stability update of FSRS (Ye, Su &
    Cao 2022) has the same two properties. Raises UsageProblem for r_now outside [0, 1] (or 0 on the power curve), a
    negative gain or an unknown curve.
    """
    if not (0.0 < r_now <= 1.0 or (r_now == 0.0 and curve == "exponential")):
        raise UsageProblem(f"r_now must be in (0, 1] ([0, 1] on the exponential curve), got {r_now!r}")
    if not rehearsal_gain >= 0.0:
        raise UsageProblem(f"rehearsal_gain must be >= 0, got {rehearsal_gain!r}")
    if curve == "power":
        g = 1.0 / (r_now * r_now)
    elif curve == "exponential":
        g = 1.0
    else:
        raise UsageProblem(f"unknown forgetting curve {curve!r} (known: {', '.join(CURVES)})")
    return g * (1.0 + rehearsal_gain * (1.0 - r_now))


def stability_after_recall(s: float, dt: float, curve: str = DEFAULT_CURVE, rehearsal_gain: float = 1.0) -> float:
    """S' = S * g(R) * (1 + rehearsal_gain * (1 - R)) with R = R(dt, S), phases, >= S (docs/model.md#forgetting).

    s : float > 0, stability before the recall; dt : float >= 0, phases since the last reinforcement (t_ref);
    see :func:`stability_gain`. With the new reference ``e_ref = m' >= m`` at ``now``, the strength at every
    later phase is at least what it would have been without the recall (law (a) of docs/model.md#forgetting).
    Raises UsageProblem for s <= 0, dt < 0, a negative gain or an unknown curve.
    """
    return s * stability_gain(retention(dt, s, curve), curve, rehearsal_gain)
