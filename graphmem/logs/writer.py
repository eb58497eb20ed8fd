"""Writing canonical game logs (docs/log-format.md): one JSON object per line, UTF-8, header first.

The output reads back equal: ``read_game_log(path)`` of a written log has the same header and the same events
(ids are always written, so events keep their identity even when the line numbers change). Fields equal to their
defaults are left out, except an explicit ``"claims": []`` (it means "no claims", where a missing ``claims`` lets
encoding derive them from the text, docs/perception.md#claims); ``kind`` comes first on every line.
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

from graphmem.logs.reader import GameLog, LoggedEvent
from graphmem.logs.schema import GameHeader

_FIRST = ("kind", "format", "game", "id", "t")
_LAST = ("witnesses", "emotion", "claims")


def to_json_object(model: BaseModel) -> dict[str, Any]:
    """A header or event as the canonical JSON object (defaults omitted but for an explicit ``"claims": []``,
    ``kind`` first)."""
    data = model.model_dump(mode="json", exclude_defaults=True)
    data["kind"] = model.model_dump(include={"kind"})["kind"]  # a default, so excluded above
    if "claims" in model.model_fields_set and "claims" not in data:
        data["claims"] = []  # given as "none": not the same as absent (claims are then derived from the text)
    first = [k for k in _FIRST if k in data]
    last = [k for k in _LAST if k in data]
    middle = [k for k in data if k not in _FIRST and k not in _LAST]
    return {k: data[k] for k in first + middle + last}


def dumps_line(obj: dict[str, Any]) -> str:
    """One canonical line (without the newline): compact JSON, non-ASCII kept as UTF-8."""
    return json.dumps(obj, ensure_ascii=False, allow_nan=False)


def event_line(logged: LoggedEvent) -> str:
    """One event's canonical line (without the newline), its id written out even when it was the line number."""
    event = logged.event
    if event.id is None:
        event = event.model_copy(update={"id": logged.id})
    return dumps_line(to_json_object(event))


def game_log_lines(log: GameLog) -> Iterator[str]:
    """The lines of the canonical file (without newlines), header first."""
    yield dumps_line(to_json_object(log.header))
    for logged in log.events:
        yield event_line(logged)


HASHED_HEADER = frozenset({"kind", "format", "game", "players", "traitor_roles", "side_names"})
"""The header fields that shape memories; a changed title, source, licence or metadata is not a different game.
(``traitor_roles`` and ``side_names`` are hashed only when they are not the default, like every field, so the hash
of a game that leaves them out is what it was before the fields existed.)"""


class LogDigest:
    """The running :func:`log_sha256` of a game whose events arrive one at a time (a live game).

    ``LogDigest(header)`` is the hash of the header alone; :meth:`add` takes the next accepted event;
    :attr:`events` counts them and :meth:`hexdigest` equals ``log_sha256`` of the same header and events.
    """

    def __init__(self, header: GameHeader) -> None:
        self._digest = hashlib.sha256()
        self.events = 0
        self._update(dumps_line({k: v for k, v in to_json_object(header).items() if k in HASHED_HEADER}))

    def _update(self, line: str) -> None:
        self._digest.update(line.encode())
        self._digest.update(b"\n")

    def add(self, logged: LoggedEvent) -> None:
        """Take the next event of the game."""
        self._update(event_line(logged))
        self.events += 1

    def hexdigest(self) -> str:
        """SHA-256 (hex) of the header and the events taken so far."""
        return self._digest.hexdigest()


def log_sha256(log: GameLog, events: int | None = None) -> str:
    """SHA-256 (hex) of what ``log`` stores: the header's :data:`HASHED_HEADER` fields and the canonical lines of
    its first ``events`` events (default all). Equal for the same game whatever file or format it was read from,
    different as soon as any event, witness, player or role differs. ``log_sha256(longer, len(shorter.events)) ==
    log_sha256(shorter)`` when ``longer`` is ``shorter`` with events added at the end (a game that went on).
    A live game keeps the same hash as its events arrive (:class:`LogDigest`)."""
    digest = LogDigest(log.header)
    for logged in log.events[:events]:
        digest.add(logged)
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
