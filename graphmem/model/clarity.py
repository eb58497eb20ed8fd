"""Clarity markers shown to the agent and the lifecycle band of a memory
(docs/model.md#cued-recall-which-memories-come-back, docs/model.md#lifecycle-states).

Markers tell the language model how much to trust a memory instead of a binary remembered/forgotten: the
seed's bands, except that VAGUE starts at the profile's RetrievalThreshold when that is above 0.15
(docs/model.md#defects-of-the-seed-formulas:
the analytical threshold 0.20 used to sit inside the VAGUE band).
"""

from __future__ import annotations

from graphmem.model._checks import check_unit
from graphmem.model.params import Parameters, resolve
from graphmem.model.vocabulary import LifecycleState, Marker

__all__ = ["LifecycleState", "Marker", "clarity_marker", "lifecycle_state", "vague_floor"]


def vague_floor(threshold: float, params: Parameters | None = None) -> float:
    """The lowest recalled strength: max(0.15, RetrievalThreshold)."""
    return max(resolve(params).clarity.vague_floor, check_unit("threshold", threshold))


def clarity_marker(strength: float, flashbulb: bool, threshold: float,
                   params: Parameters | None = None) -> Marker | None:
    """The marker of a memory of this strength, or None when it is not recalled
    (docs/model.md#cued-recall-which-memories-come-back).

    strength : float in [0, 1], current (displayed) strength; flashbulb : always FLASHBULB;
    threshold : the owner's RetrievalThreshold in [0, 0.40).
    CLEAR at >= 0.70, FUZZY at >= 0.40, VAGUE at >= max(0.15, threshold), else None.
    Markers are ``str`` enums: ``Marker.CLEAR == "CLEAR"``.
    """
    c = resolve(params).clarity
    check_unit("strength", strength)
    if flashbulb:
        return Marker.FLASHBULB
    if strength >= c.clear:
        return Marker.CLEAR
    if strength >= c.fuzzy:
        return Marker.FUZZY
    if strength >= vague_floor(threshold, params):
        return Marker.VAGUE
    return None


def lifecycle_state(strength: float, threshold: float, params: Parameters | None = None) -> LifecycleState:
    """active (m >= 0.40), warm (threshold <= m < 0.40) or archived (m < threshold) (docs/model.md#lifecycle-states).

    strength : float in [0, 1], current displayed strength (a flashbulb's is floored at 0.8, so it stays
    active); threshold : the owner's RetrievalThreshold. The other states (candidate, consolidated,
    tombstoned) are set by the consolidation and forgetting jobs, never by strength.
    """
    if check_unit("strength", strength) >= resolve(params).lifecycle.active:
        return LifecycleState.ACTIVE
    if strength >= check_unit("threshold", threshold):
        return LifecycleState.WARM
    return LifecycleState.ARCHIVED
