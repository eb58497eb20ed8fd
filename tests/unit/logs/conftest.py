"""Fixtures for the game-log tests (helpers in logs_helpers.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.unit.logs.logs_helpers import HEADER, jsonl


@pytest.fixture
def write_log(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Write canonical lines (header first unless given) to a file and return its path."""
    def write(*objects: dict[str, Any] | str, header: bool = True, name: str = "game.jsonl") -> Path:
        path = tmp_path / name
        path.write_text(jsonl(*(((HEADER,) if header else ()) + objects)), encoding="utf-8")
        return path
    return write
