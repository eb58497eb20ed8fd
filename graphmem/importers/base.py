"""The importer interface and the one path every import takes through the canonical validator.

An importer turns a log of another shape into canonical objects (docs/perception.md#imported-logs). It never validates
the canonical rules itself: :func:`import_game_log` feeds its output, object by object, through
:class:`~graphmem.logs.reader.GameLogValidator`, so imported and native logs obey identical rules.

Importers are tolerant where canonical logs are strict: a keyword a person would read correctly is read
(:mod:`graphmem.importers.keywords`) and reported as a :class:`~graphmem.errors.Guess`, which travels with the
conversion into the :class:`~graphmem.logs.reader.GameLog` (``guesses``), the ingest summary and ``graphmem
convert``'s report. :class:`ConversionBuilder` is the state every importer shares: the objects, their origins,
the problems and the guesses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

from graphmem.errors import Guess, InvalidGameLog, LogProblem
from graphmem.importers.keywords import read_keyword
from graphmem.logs.reader import GameLog, GameLogValidator, json_error_message

T = TypeVar("T")


@dataclass(frozen=True)
class Conversion:
    """What an importer made of one source log.

    objects : list of dict, canonical JSON objects: the header first, then the events in order
    origins : list of str, for each object its position in the source (e.g. ``buffer_items[57]``), same length
    problems : list of LogProblem, what could not be converted (``line`` 0, ``field`` the position in the source,
        e.g. ``buffer_items[57].data.payload.plomp_display_text``, ``reason`` with a text excerpt); the events
        concerned are left out of ``objects``
    guesses : list of Guess, the keywords read as near spellings of known ones (``line``: the canonical line,
        i.e. the index in ``objects`` plus one, of the object that holds what was read)
    """

    objects: list[dict[str, Any]]
    origins: list[str]
    problems: list[LogProblem] = field(default_factory=list)
    guesses: list[Guess] = field(default_factory=list)


class Unconvertible(Exception):
    """A part of a source log that cannot be converted: its problem is reported and the part left out."""

    def __init__(self, problem: LogProblem) -> None:
        super().__init__(problem.reason)
        self.problem = problem


class ConversionBuilder:
    """The output of one conversion as it is built: canonical objects with their origins, problems, guesses.

    Guesses made while reading a part of the source wait (:meth:`guess`) until that part's first object is
    emitted (:meth:`emit`), which gives them their canonical line; a part that is refused drops them
    (:meth:`drop_guesses`), since its problem says what happened to it.
    """

    def __init__(self) -> None:
        self.objects: list[dict[str, Any]] = []
        self.origins: list[str] = []
        self.problems: list[LogProblem] = []
        self.guesses: list[Guess] = []
        self._pending: list[Guess] = []

    def emit(self, obj: dict[str, Any], origin: str) -> None:
        """Append one canonical object (the header first) and its position in the source."""
        self.objects.append(obj)
        self.origins.append(origin)
        line = len(self.objects)
        self.guesses.extend(Guess(g.where, g.read, g.taken_as, line) for g in self._pending)
        self._pending.clear()

    def guess(self, where: str, read: str, taken_as: str) -> None:
        """Record that ``read`` at ``where`` was taken as ``taken_as`` (placed on the next emitted object)."""
        self._pending.append(Guess(where, read, taken_as))

    def note(self, where: str, read: str, taken_as: str) -> None:
        """Record a reading that went into no canonical line (a part read as something to leave out): line 0."""
        self.guesses.append(Guess(where, read, taken_as))

    def drop_guesses(self) -> None:
        """Forget the guesses of a part of the source that was refused."""
        self._pending.clear()

    def hold(self) -> tuple[Guess, ...]:
        """Take away the guesses waiting for the next emitted object: those of a part read ahead of the place where
        it is emitted (an Avalon-NLU belief row is read before the messages it goes among), to be given back by
        :meth:`restore` when that part is emitted."""
        held = tuple(self._pending)
        self._pending.clear()
        return held

    def restore(self, guesses: Iterable[Guess]) -> None:
        """Give back guesses taken by :meth:`hold`: they wait for the next emitted object again."""
        self._pending.extend(guesses)

    def keyword(self, text: str, vocabulary: tuple[str, ...] | list[str], where: str, what: str) -> str:
        """``text`` read as one keyword of ``vocabulary`` (:func:`graphmem.importers.keywords.read_keyword`),
        recording a guess when it was not written exactly so.

        where : the position in the source; what : what the position holds, for the problem ("a team vote").
        Raises Unconvertible (the problem: position and reason) when the text cannot be read.
        """
        reading = read_keyword(text, vocabulary)
        if reading.keyword is None:
            raise Unconvertible(LogProblem(0, where, f"cannot read {what}: {reading.reason}"))
        if reading.guessed:
            self.guess(where, text, reading.keyword)
        return reading.keyword

    def problem(self, where: str, reason: str) -> None:
        """Report a part of the source that could not be converted (left out)."""
        self.problems.append(LogProblem(0, where, reason))

    def part(self, convert: Callable[..., T], *args: Any) -> T | None:
        """``convert(*args)``: one part of the source (an item, a mission, a chat line) converted. A part that
        raises :class:`Unconvertible` is reported (its problem), its pending guesses dropped, and left out: None."""
        try:
            return convert(*args)
        except Unconvertible as e:
            self.drop_guesses()
            self.problems.append(e.problem)
            return None

    def result(self) -> Conversion:
        """The conversion so far."""
        return Conversion(list(self.objects), list(self.origins), list(self.problems), list(self.guesses))


@runtime_checkable
class Importer(Protocol):
    """A converter from one external log format to canonical objects.

    name : str, the format name used by ``graphmem convert --from NAME``
    description : str, one line for ``--help`` and error messages
    game_id_from_folder : bool, True when the game id is made from the name of the game's folder (the log does not
        hold one): an upload, whose files sit in no folder of the user's, must then say that name (``POST /ingest``'s
        ``folder_name``), or the same game would be stored again under another id
    """

    name: str
    description: str
    game_id_from_folder: bool

    def detect(self, path: Path) -> bool:
        """True if ``path`` (a file or a folder) is one game log in this format. Must not raise."""
        ...

    def convert(self, path: Path) -> Conversion:
        """Convert one game. Raises InvalidGameLog when nothing (not even a header) can be made of it."""
        ...


def load_json(path: Path, name: str) -> Any:
    """The JSON document in ``path`` (``name`` in messages). Raises InvalidGameLog, with the line where it can be
    told, for an unreadable, binary, non-UTF-8 or invalid JSON file."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise InvalidGameLog(name, [LogProblem(0, "", f"cannot read the file: {e.strerror or e}")]) from e
    if b"\x00" in raw:
        raise InvalidGameLog(name, [LogProblem(0, "", "binary file (NUL byte): not a JSON plomp log")])
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise InvalidGameLog(name, [LogProblem(line, "", f"not valid UTF-8: byte 0x{raw[e.start]:02x}")]) from None
    except json.JSONDecodeError as e:
        raise InvalidGameLog(name, [LogProblem(e.lineno, "", f"invalid JSON: {json_error_message(e)}")]) from None
    except RecursionError:
        raise InvalidGameLog(name, [LogProblem(0, "", "invalid JSON: nested too deeply")]) from None
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        raise InvalidGameLog(name, [LogProblem(0, "", f"invalid JSON: {e}")]) from None


def _position_key(problem: LogProblem) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\[(\d+)\]", problem.field)[:1]) or (-1,)


def validate_conversion(conversion: Conversion, source: str, *, skip_invalid: bool = False) -> GameLog:
    """Run an importer's output through the canonical validator.

    Problems of converted events are reported at their source position: ``field`` is the origin (and the
    canonical field), ``reason`` names the canonical event kind. Raises InvalidGameLog with every problem (the
    importer's and the validator's) unless ``skip_invalid``; a bad header always raises. The conversion's
    guesses go into the GameLog (``guesses``).
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
    return replace(validator.game_log(problems), guesses=tuple(conversion.guesses))


def import_game_log(importer: Importer, path: str | Path, *, skip_invalid: bool = False) -> GameLog:
    """Convert one game with ``importer`` and validate it as canonical (see :func:`validate_conversion`)."""
    return validate_conversion(importer.convert(Path(path)), str(path), skip_invalid=skip_invalid)
