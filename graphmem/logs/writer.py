"""Writing canonical game logs (SPEC 2.1): one JSON object per line, UTF-8, header first.

The output reads back equal: ``read_game_log(path)`` of a written log has the same header and the same events
(ids are always written, so events keep their identity even when the line numbers change). Fields equal to their
defaults are left out; ``kind`` comes first on every line.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel

from graphmem.logs.reader import GameLog

_FIRST = ("kind", "format", "game", "id", "t")
_LAST = ("witnesses", "emotion", "claims")


def to_json_object(model: BaseModel) -> dict[str, Any]:
    """A header or event as the canonical JSON object (defaults omitted, ``kind`` first)."""
    data = model.model_dump(mode="json", exclude_defaults=True)
    data["kind"] = model.model_dump(include={"kind"})["kind"]  # a default, so excluded above
    first = [k for k in _FIRST if k in data]
    last = [k for k in _LAST if k in data]
    middle = [k for k in data if k not in _FIRST and k not in _LAST]
    return {k: data[k] for k in first + middle + last}


def dumps_line(obj: dict[str, Any]) -> str:
    """One canonical line (without the newline): compact JSON, non-ASCII kept as UTF-8."""
    return json.dumps(obj, ensure_ascii=False, allow_nan=False)


def game_log_lines(log: GameLog) -> Iterator[str]:
    """The lines of the canonical file (without newlines), header first."""
    yield dumps_line(to_json_object(log.header))
    for logged in log.events:
        event = logged.event
        if event.id is None:
            event = event.model_copy(update={"id": logged.id})
        yield dumps_line(to_json_object(event))


HASHED_HEADER = frozenset({"kind", "format", "game", "players"})
"""The header fields that shape memories; a changed title, source, licence or metadata is not a different game."""


def log_sha256(log: GameLog, events: int | None = None) -> str:
    """SHA-256 (hex) of what ``log`` stores: the header's :data:`HASHED_HEADER` fields and the canonical lines of
    its first ``events`` events (default all). Equal for the same game whatever file or format it was read from,
    different as soon as any event, witness, player or role differs. ``log_sha256(longer, len(shorter.events)) ==
    log_sha256(shorter)`` when ``longer`` is ``shorter`` with events added at the end (a game that went on)."""
    digest = hashlib.sha256()
    header = {k: v for k, v in to_json_object(log.header).items() if k in HASHED_HEADER}
    for i, line in enumerate(game_log_lines(log)):
        if events is not None and i > events:
            break
        digest.update((dumps_line(header) if i == 0 else line).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def write_game_log(log: GameLog, out: str | os.PathLike[str] | TextIO) -> None:
    """Write a game log as canonical JSONL.

    log : GameLog, e.g. from :func:`~graphmem.logs.reader.read_game_log` or an importer
    out : a path (written atomically: a temporary file in the same folder, then renamed) or a text stream
    """
    if isinstance(out, (str, os.PathLike)):
        path = Path(out)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                _write(log, fh)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    else:
        _write(log, out)


def _write(log: GameLog, fh: TextIO) -> None:
    for line in game_log_lines(log):
        fh.write(line)
        fh.write("\n")
