"""Phases and days of a plomp game, which the logs do not record: they are synthesised from the event types.

Each plomp event type has a phase (:data:`PHASE_OF`); a ``phase`` event is emitted when an event's phase differs
from the current one, and the day advances when the new phase does not come later in :data:`DAY_ORDER` than the
current one. The full rules, with the cases they cover, are in the package docstring ("Phases and days").
"""

from __future__ import annotations

from typing import Any

PHASE_OF: dict[str, str | None] = {
    "ROLE_SELECTED": None,
    "GAME_START": None,
    "PRIVATE_MESSAGE": "social",
    "ROUND_TABLE_SPEECH": "roundtable",
    "ROUND_TABLE_VOTE": "roundtable",
    "ELIMINATED_PLAYER": "banishment",
    "MURDER_SUGGESTION": "night",
    "MURDER_VOTE": "night",
    "MURDER_DECISION": "night",
    "MURDERED_PLAYER": "breakfast",
    "FINAL_ROUND_ANNOUNCEMENT": "final",
    "FINAL_ROUND_VOTE": "final",
    "FINAL_ROUND_CONTINUE": "final",
    "FINAL_ROUND_SPEECH": "final",
    "FINAL_ROUND_ELIMINATION": "banishment",
    "GAME_END": None,
}
"""The phase of each plomp event type (None: stays in the current phase)."""

DAY_ORDER = ("breakfast", "social", "roundtable", "final", "banishment", "night")
"""The order of phases within a day; going back in this order starts the next day."""


def day_after(current: str, day: int, phase: str) -> int:
    """The day once ``phase`` is entered from phase ``current`` of ``day`` (``phase`` differs from ``current``).

    Leaving "pregame" (day 0) starts day 1; a phase that does not come later in :data:`DAY_ORDER` than ``current``
    starts the next day; otherwise the day stays.
    """
    if current == "pregame":
        return max(day, 1)
    if DAY_ORDER.index(phase) <= DAY_ORDER.index(current):
        return day + 1
    return day


def phase_event(index: int, t: Any, day: int, phase: str) -> dict[str, Any]:
    """The canonical ``phase`` event entered at ``buffer_items[index]`` (at time ``t``, None if the item has none)."""
    obj: dict[str, Any] = {"kind": "phase", "id": f"b{index}-phase"}
    if t is not None:
        obj["t"] = t
    obj.update(day=day, name=phase)
    return obj
