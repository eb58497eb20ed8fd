"""The importer interface and the one path every import takes through the canonical validator.

An importer turns a log of another shape into canonical objects (SPEC 2.2). It never validates the canonical rules
itself: :func:`import_game_log` feeds its output, object by object, through
:class:`~graphmem.logs.reader.GameLogValidator`, so imported and native logs obey identical rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from graphmem.errors import InvalidGameLog, LogProblem
from graphmem.logs.reader import GameLog, GameLogValidator


@dataclass(frozen=True)
class Conversion:
    """What an importer made of one source log.

    objects : list of dict, canonical JSON objects: the header first, then the events in order
    origins : list of str, for each object its position in the source (e.g. ``buffer_items[57]``), same length
    problems : list of LogProblem, what could not be converted (``line`` 0, ``field`` the position in the source,
        e.g. ``buffer_items[57].data.payload.plomp_display_text``, ``reason`` with a text excerpt); the events
        concerned are left out of ``objects``
    """

    objects: list[dict[str, Any]]
    origins: list[str]
    problems: list[LogProblem] = field(default_factory=list)


@runtime_checkable
class Importer(Protocol):
    """A converter from one external log format to canonical objects.

    name : str, the format name used by ``graphmem convert --from NAME``
    description : str, one line for ``--help`` and error messages
    """

    name: str
    description: str

    def detect(self, path: Path) -> bool:
        """True if ``path`` (a file or a folder) is one game log in this format. Must not raise."""
        ...

    def convert(self, path: Path) -> Conversion:
        """Convert one game. Raises InvalidGameLog when nothing (not even a header) can be made of it."""
        ...


def _position_key(problem: LogProblem) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\[(\d+)\]", problem.field)[:1]) or (-1,)


def validate_conversion(conversion: Conversion, source: str, *, skip_invalid: bool = False) -> GameLog:
    """Run an importer's output through the canonical validator.

    Problems of converted events are reported at their source position: ``field`` is the origin (and the
    canonical field), ``reason`` names the canonical event kind. Raises InvalidGameLog with every problem (the
    importer's and the validator's) unless ``skip_invalid``; a bad header always raises.
    """
    if not conversion.objects:
        raise InvalidGameLog(source, conversion.problems or [LogProblem(0, "", "nothing to convert")])
    origins = list(conversion.origins) + [""] * (len(conversion.objects) - len(conversion.origins))
    try:
        validator = GameLogValidator(conversion.objects[0], source=source)
    except InvalidGameLog as e:
        where = origins[0] or "header"
        header = [LogProblem(0, f"{where} (canonical header, field {p.field})" if p.field else where, p.reason)
                  for p in e.problems]
        raise InvalidGameLog(source, conversion.problems + header) from None
    problems = list(conversion.problems)
    for line, (obj, origin) in enumerate(zip(conversion.objects[1:], origins[1:]), start=2):
        _, event_problems = validator.offer(obj, line)
        kind = obj.get("kind", "?") if isinstance(obj, dict) else "?"
        for p in event_problems:
            where = f"{origin} (canonical {kind} event, field {p.field})" if p.field else f"{origin} ({kind})"
            problems.append(LogProblem(0, where, p.reason))
    problems.sort(key=_position_key)
    if problems and not skip_invalid:
        raise InvalidGameLog(source, problems)
    return validator.game_log(problems)


def import_game_log(importer: Importer, path: str | Path, *, skip_invalid: bool = False) -> GameLog:
    """Convert one game with ``importer`` and validate it as canonical (see :func:`validate_conversion`)."""
    return validate_conversion(importer.convert(Path(path)), str(path), skip_invalid=skip_invalid)
