"""Rows as the ``players`` and ``who_told_whom`` analysis queries return them, for a small made-up game."""

from __future__ import annotations

from typing import Any

PLAYERS: list[dict[str, Any]] = [
    {"player": "Ann", "role": "traitor", "profile": "balanced", "status": "alive", "eliminated_day": None},
    {"player": "Bob", "role": "faithful", "profile": "analytical", "status": "murdered", "eliminated_day": 2},
    {"player": "Cat", "role": "faithful", "profile": "balanced", "status": "banished", "eliminated_day": 1},
    {"player": "Dan", "role": "faithful", "profile": "emotional", "status": "alive", "eliminated_day": None},
    {"player": "Eve", "role": "traitor", "profile": "paranoid", "status": "alive", "eliminated_day": None},
]
TOLD: list[dict[str, Any]] = [
    {"teller": "Ann", "listener": "Bob", "day": 1, "channel": "private", "messages": 3},
    {"teller": "Ann", "listener": "Bob", "day": 2, "channel": "private", "messages": 2},
    {"teller": "Ann", "listener": "Bob", "day": 1, "channel": "roundtable", "messages": 1},
    {"teller": "Bob", "listener": "Cat", "day": 1, "channel": "roundtable", "messages": 1},
    {"teller": "Bob", "listener": "Dan", "day": 1, "channel": "roundtable", "messages": 1},
    {"teller": "Ann", "listener": "Eve", "day": 2, "channel": "traitors", "messages": 4},
    {"teller": "Dan", "listener": "Ann", "day": 2, "channel": "public", "messages": 1},
]
