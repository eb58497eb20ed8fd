"""Reading an Avalon game file (:func:`read`): one JSON object per game (``individual_games/game_NN.json``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphmem.errors import InvalidGameLog, LogProblem
from graphmem.importers.base import load_json


def read(path: Path) -> dict[str, Any]:
    """The game's JSON object. Raises InvalidGameLog when the file is unreadable or is not a JSON object."""
    data = load_json(path, str(path))
    if not isinstance(data, dict):
        raise InvalidGameLog(str(path), [LogProblem(0, "", "not an Avalon game: expected a JSON object")])
    return data
