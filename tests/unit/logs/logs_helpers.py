"""Helpers for the game-log tests: paths of the examples, fixtures and the 40 real games; a test header."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"
FIXTURES = REPO / "tests" / "data" / "logs"

HEADER: dict[str, Any] = {
    "kind": "game", "format": "graphmem/1", "game": "g-001", "title": "test",
    "players": [{"name": "Marcus", "role": "faithful"}, {"name": "Sarah", "role": "traitor"},
                {"name": "Eleanor", "role": "faithful", "profile": "analytical"}],
}


def jsonl(*objects: dict[str, Any] | str) -> str:
    """Canonical text: dicts become JSON lines, strings are taken as raw lines."""
    return "".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objects)
