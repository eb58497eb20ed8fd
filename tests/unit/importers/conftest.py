"""Fixtures for the importer tests: a copy of one example game to damage (the real games are tests/conftest.py's
``real_games_path``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.unit.logs.logs_helpers import EXAMPLES


@pytest.fixture
def game_copy(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Copy a real example game folder into tmp and return (folder, parsed plomp.json)."""
    def copy(game_id: str = "yy0et4ne") -> tuple[Path, dict[str, Any]]:
        target = tmp_path / game_id
        shutil.copytree(EXAMPLES / "traitors-llm" / game_id, target)
        return target, json.loads((target / "plomp.json").read_text(encoding="utf-8"))
    return copy
