"""Reading an Avalon-NLU game file (:func:`read`): one TinyDB JSON document per game, every table an object keyed by
row number as a string (``users``, ``messages``, ``beliefs``, ``persuasion``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphmem.errors import InvalidGameLog, LogProblem
from graphmem.importers.base import load_json

TABLES = ("users", "messages", "beliefs", "persuasion")
"""The tables of a game file: ``users`` and ``messages`` are required, ``beliefs`` and ``persuasion`` may be
missing (a game whose players set no belief has no ``beliefs`` table)."""
REQUIRED = ("users", "messages")


def read(path: Path) -> dict[str, Any]:
    """The game's JSON object. Raises InvalidGameLog when the file is unreadable, is not a JSON object, or lacks the
    ``users`` or ``messages`` table (or holds one that is not an object)."""
    data = load_json(path, str(path))
    if not isinstance(data, dict):
        raise InvalidGameLog(str(path), [LogProblem(0, "", "not an Avalon-NLU game: expected a JSON object")])
    problems = [LogProblem(0, table, "missing: every Avalon-NLU game has this table") for table in REQUIRED
                if table not in data]
    problems += [LogProblem(0, table, f"expected a JSON object keyed by row number, got {type(data[table]).__name__}")
                 for table in TABLES if table in data and not isinstance(data[table], dict)]
    if problems:
        raise InvalidGameLog(str(path), problems)
    return data


def rows(table: dict[str, Any]) -> list[tuple[str, Any]]:
    """The rows of a TinyDB table in their order: ``(key, record)``, keys that are row numbers first by number (the
    table's order of insertion), any other key after them in the file's order (it is reported where it is read)."""
    numbered = sorted((k for k in table if k.isdigit()), key=int)
    return [(k, table[k]) for k in numbered] + [(k, v) for k, v in table.items() if not k.isdigit()]
