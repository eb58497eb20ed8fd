"""Reading and validating canonical game logs (docs/log-format.md), completely.

Validation is complete: every bad line is reported, with its line number, the field and the reason, in one
:class:`~graphmem.errors.InvalidGameLog`. Nothing raises anything else: unreadable, empty, binary, non-UTF-8 and
truncated input are all reported as problems.

Beyond the per-line schema (:mod:`graphmem.logs.schema`), the reader checks the context: the first line is the
header; every player-valued field names a player of the header (exact spelling, after NFC normalisation); event
kinds are known; ``phase`` events never go back in days; event ids are unique (an event without ``id`` gets its line
number, so an explicit id "7" clashes with the event on line 7); and the game's state
(:mod:`graphmem.logs.state`): nothing follows the ``end`` event, a murdered or banished player no longer acts or
perceives, a revealed role is the player's current role.

Phases: phase index 0 holds the events before the first ``phase`` event (day 0, name "pregame"); each ``phase``
event opens the next index (1, 2, ...) with its ``day`` and ``name``.

Entry points: :func:`read_game_log` (a file), :func:`parse_game_log` (lines in memory) and
:class:`GameLogValidator` (one event at a time, for a game engine); all three apply the same rules.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from pydantic import ValidationError

from graphmem.errors import Guess, InvalidGameLog, LogProblem, did_you_mean
from graphmem.logs.schema import (
    EVENT_KINDS,
    EVENT_MODELS,
    Event,
    GameHeader,
    PhaseEvent,
    player_references,
    unicode_problems,
)
from graphmem.logs.state import GameState, line_place

PREGAME = "pregame"
"""The name of phase 0 when the log does not open with a ``phase`` event."""

_EXCERPT = 80


@dataclass(frozen=True)
class PhaseInfo:
    """One phase of a game.

    index : int, 0-based global phase index
    day : int, the day label (0 for the implicit pregame phase)
    name : str, e.g. breakfast, social, roundtable, banishment, night, final ("pregame" for the implicit phase 0)
    line : int, line of the ``phase`` event that opened it (0 for the implicit phase 0)
    """

    index: int
    day: int
    name: str
    line: int


@dataclass(frozen=True)
class LoggedEvent:
    """A validated event with its position in the game.

    event : Event, the canonical event (its ``id`` is always set)
    line : int, 1-based line in the canonical log (for an import: the line it would have in the converted file)
    phase : int, phase index (a ``phase`` event carries the index it opens)
    day : int, the day of that phase
    phase_name : str, the name of that phase
    """

    event: Event
    line: int
    phase: int
    day: int
    phase_name: str

    @property
    def id(self) -> str:
        """The event id (the line number when the log gave none)."""
        return self.event.id or str(self.line)

    @property
    def kind(self) -> str:
        """The event kind ("say", "vote", ...)."""
        return self.event.kind


@dataclass(frozen=True)
class GameLog:
    """A validated game log.

    header : GameHeader
    events : tuple of LoggedEvent, in log order (``phase`` events included)
    phases : tuple of PhaseInfo, every phase by index (phase 0 always present)
    rejected : tuple of LogProblem, the problems of the lines left out (only with ``skip_invalid``)
    source : str, the file (or the name given for in-memory input)
    guesses : tuple of Guess, the keywords an importer read as near spellings of known ones (always empty for a
        canonical log, which is read strictly)
    """

    header: GameHeader
    events: tuple[LoggedEvent, ...]
    phases: tuple[PhaseInfo, ...]
    rejected: tuple[LogProblem, ...] = ()
    source: str = "<memory>"
    guesses: tuple[Guess, ...] = ()

    @property
    def game(self) -> str:
        """The game id."""
        return self.header.game

    @property
    def imported_from(self) -> str:
        """The importer that produced the log, or "graphmem" for a native canonical log."""
        return self.header.imported_from or "graphmem"


def json_error_message(e: json.JSONDecodeError) -> str:
    """The decoder's message with its column: "Expecting ',' delimiter at column 16", "Unterminated string
    starting at column 20" (Python's message ends in " at" for some errors already)."""
    at = "" if e.msg.endswith(" at") else " at"
    return f"{e.msg}{at} column {e.colno}"


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= _EXCERPT else text[: _EXCERPT - 3] + "...")


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _pydantic_problems(error: ValidationError, line: int, prefix: str = "") -> list[LogProblem]:
    problems = []
    errors = error.errors(include_url=False)
    for err in errors:
        loc = tuple(err["loc"])
        if err["type"] == "too_short" and any(len(o["loc"]) > len(loc) and tuple(o["loc"][: len(loc)]) == loc
                                              for o in errors):
            continue  # a list whose items failed is reported by those items, not as "too short"
        where = _loc(loc)
        if prefix:
            where = f"{prefix}.{where}" if where else prefix
        kind = err["type"]
        if kind == "extra_forbidden":
            reason = "unknown field"
        elif kind == "missing":
            reason = "missing required field"
        elif kind == "tuple_type":
            reason = "must be a list"
        else:
            reason = str(err["msg"]).removeprefix("Value error, ").replace("Tuple should", "List should")
            if kind in ("string_type", "int_type", "float_type", "bool_type", "literal_error", "dict_type"):
                reason += f", got {json.dumps(err.get('input'), ensure_ascii=False)[:_EXCERPT]}"
        problems.append(LogProblem(line, where, reason))
    return problems


class _JSONError(ValueError):
    pass


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _JSONError(f"duplicate key {key!r} in a JSON object")
        obj[key] = value
    return obj


def _reject_constant(name: str) -> Any:
    raise _JSONError(f"{name} is not valid JSON")


def parse_json_line(text: str, line: int) -> tuple[Any, list[LogProblem]]:
    """Parse one line as strict JSON (no NaN/Infinity, no duplicate keys); problems instead of exceptions."""
    try:
        return json.loads(text, object_pairs_hook=_object_pairs, parse_constant=_reject_constant), []
    except _JSONError as e:
        return None, [LogProblem(line, "", f"invalid JSON: {e}")]
    except json.JSONDecodeError as e:
        stripped = text.rstrip()
        truncated = stripped.startswith(("{", "[")) and (e.pos >= len(stripped) or e.msg.startswith("Unterminated")
                                                       or not stripped.endswith(("}", "]")))
        hint = " (the line is truncated)" if truncated else ""
        return None, [LogProblem(line, "", f"invalid JSON{hint}: {json_error_message(e)}")]
    except RecursionError:
        return None, [LogProblem(line, "", "invalid JSON: nested too deeply")]
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        return None, [LogProblem(line, "", f"invalid JSON: {e}")]


def _unicode_problems(obj: Mapping[str, Any], line: int) -> list[LogProblem]:
    """A problem per string of ``obj`` that is not valid Unicode (a lone surrogate), before anything reads it."""
    return [LogProblem(line, field, reason) for field, reason in unicode_problems(dict(obj))]


def validate_header(obj: Any, line: int = 1) -> tuple[GameHeader | None, list[LogProblem]]:
    """Validate a header object; returns ``(header, [])`` or ``(None, problems)``."""
    if not isinstance(obj, Mapping):
        return None, [LogProblem(line, "", f"the header must be a JSON object, got {type(obj).__name__}")]
    if broken := _unicode_problems(obj, line):
        return None, broken
    if obj.get("kind") != "game":
        kind = obj.get("kind")
        got = f"an event of kind {kind!r}" if isinstance(kind, str) else "an object without kind \"game\""
        return None, [LogProblem(line, "kind", f'the first line must be the header {{"kind": "game", '
                                               f'"format": "graphmem/1", ...}}, got {got}')]
    try:
        return GameHeader.model_validate(obj), []
    except ValidationError as e:
        return None, _pydantic_problems(e, line)


def validate_event_object(obj: Any, line: int) -> tuple[Event | None, list[LogProblem]]:
    """Check one event object against the schema alone (no context). ``id`` defaults to ``str(line)``."""
    if not isinstance(obj, Mapping):
        return None, [LogProblem(line, "", f"expected a JSON object, got {type(obj).__name__}")]
    if broken := _unicode_problems(obj, line):
        return None, broken
    known = ", ".join(EVENT_KINDS)
    if "kind" not in obj:
        return None, [LogProblem(line, "kind", f"missing: every event needs a kind (one of {known})")]
    kind = obj["kind"]
    if kind == "game":
        return None, [LogProblem(line, "kind", "a header (kind \"game\") may only appear on the first line")]
    if not isinstance(kind, str) or kind not in EVENT_MODELS:
        shown = json.dumps(kind, ensure_ascii=False)[:_EXCERPT]
        return None, [LogProblem(line, "kind", f"unknown event kind {shown}; known kinds: {known}")]
    data = dict(obj)
    data.setdefault("id", str(line))
    try:
        event = EVENT_MODELS[kind].model_validate(data)
    except ValidationError as e:
        return None, _pydantic_problems(e, line)
    return cast(Event, event), []


class GameLogValidator:
    """Validates the events of one game, one at a time, with the same rules as :func:`read_game_log`.

    header : GameHeader, or a header object (dict) that is validated first (raises InvalidGameLog)
    source : str, the name used in error messages
    header_line : int, the line of the header (events then start at ``header_line + 1``)
    place : how messages name an earlier event by its line (default "line 9"; a live game says "event 7 of the
        game", see :mod:`graphmem.ingest.live`)

    A game engine feeds events as they happen::

        validator = GameLogValidator(header)
        logged = validator.feed({"kind": "say", "speaker": "Marcus", ...})  # raises InvalidGameLog

    A rejected event leaves the validator unchanged. :meth:`game_log` returns what was accepted so far.
    """

    def __init__(self, header: GameHeader | Mapping[str, Any], *, source: str = "<stream>",
                 header_line: int = 1, place: Callable[[int], str] = line_place) -> None:
        if not isinstance(header, GameHeader):
            checked, problems = validate_header(header, header_line)
            if checked is None:
                raise InvalidGameLog(source, problems)
            header = checked
        self.header = header
        self.source = source
        self._players = set(header.player_names)
        self._lower = {name.casefold(): name for name in header.player_names}
        self._ids: dict[str, int] = {}
        self.place = place
        self._state = GameState.of(header, place)
        self._phases: list[PhaseInfo] = [PhaseInfo(0, 0, PREGAME, 0)]
        self._events: list[LoggedEvent] = []
        self._last_line = header_line

    def fork(self) -> GameLogValidator:
        """An independent copy in the same state (cheap: the accepted events are immutable and shared), so a batch
        can be validated whole and thrown away when any event of it is refused."""
        other = copy.copy(self)
        other._ids = dict(self._ids)
        other._phases = list(self._phases)
        other._events = list(self._events)
        other._state = self._state.copy()
        return other

    @property
    def next_line(self) -> int:
        """The line the next event gets when none is given (the one after the last consumed)."""
        return self._last_line + 1

    @property
    def state(self) -> GameState:
        """The game's state after the accepted events (read it; :meth:`feed` and :meth:`offer` change it)."""
        return self._state

    @property
    def events(self) -> tuple[LoggedEvent, ...]:
        """The events accepted so far."""
        return tuple(self._events)

    @property
    def phases(self) -> tuple[PhaseInfo, ...]:
        """The phases so far (phase 0 always present)."""
        return tuple(self._phases)

    @property
    def current_phase(self) -> PhaseInfo:
        """The phase the next event falls into (unless it is a ``phase`` event)."""
        return self._phases[-1]

    def check(self, obj: Any, line: int | None = None) -> tuple[Event | None, list[LogProblem]]:
        """Every problem of one event in the current context, without accepting it."""
        line = self._last_line + 1 if line is None else line
        problems: list[LogProblem] = []
        if line <= self._last_line:
            problems.append(LogProblem(line, "", f"line numbers must increase (last was {self._last_line})"))
        event, schema_problems = validate_event_object(obj, line)
        if event is None:
            return None, problems + schema_problems
        for where, name in player_references(event):
            if name not in self._players:
                problems.append(LogProblem(line, where, self._unknown_player(name)))
        event_id = event.id or str(line)
        if event_id in self._ids:
            problems.append(LogProblem(line, "id", f"duplicate event id {event_id!r} (first used on "
                                                   f"{self.place(self._ids[event_id])})"))
        if isinstance(event, PhaseEvent) and event.day < self.current_phase.day:
            last = self.current_phase
            problems.append(LogProblem(line, "day", f"phase goes backwards: day {event.day} after day {last.day} "
                                                    f"(phase {last.name!r} on {self.place(last.line)})"))
        problems.extend(self._state.problems(event, line))
        return (None, problems) if problems else (event, [])

    def _unknown_player(self, name: str) -> str:
        near = self._lower.get(name.strip().casefold())
        hint = f" ({did_you_mean([near], quote=True)} names are case-sensitive)" if near else ""
        return f"unknown player {name!r}{hint}; players: {', '.join(self.header.player_names)}"

    def offer(self, obj: Any, line: int | None = None) -> tuple[LoggedEvent | None, list[LogProblem]]:
        """Validate one event object and accept it if valid: ``(LoggedEvent, [])`` or ``(None, problems)``.

        A rejected event still consumes its line number.
        """
        line = self._last_line + 1 if line is None else line
        event, problems = self.check(obj, line)
        if event is None:
            self.skip_line(line)
            return None, problems
        return self._accept(event, line), []

    def feed(self, obj: Any, line: int | None = None) -> LoggedEvent:
        """Validate one event object and accept it.

        obj : dict, a canonical event object
        line : int or None, its line number (default: the line after the last one)

        Returns the LoggedEvent (with phase index, day and phase name). Raises InvalidGameLog with every
        problem of this event; the validator is then unchanged.
        """
        line = self._last_line + 1 if line is None else line
        event, problems = self.check(obj, line)
        if event is None:
            raise InvalidGameLog(self.source, problems)
        return self._accept(event, line)

    def _accept(self, event: Event, line: int) -> LoggedEvent:
        if isinstance(event, PhaseEvent):
            self._phases.append(PhaseInfo(len(self._phases), event.day, event.name, line))
        phase = self._phases[-1]
        logged = LoggedEvent(event, line, phase.index, phase.day, phase.name)
        self._state.apply(event, line, phase.index, phase.day, phase.name)
        self._events.append(logged)
        self._ids[logged.id] = line
        self._last_line = line
        return logged

    def skip_line(self, line: int) -> None:
        """Note that ``line`` was consumed without an event (blank or rejected), so later lines must follow it."""
        self._last_line = max(self._last_line, line)

    def game_log(self, rejected: Iterable[LogProblem] = ()) -> GameLog:
        """A GameLog of everything accepted so far."""
        return GameLog(self.header, tuple(self._events), tuple(self._phases), tuple(rejected), self.source)


def _decode(raw: str | bytes, line: int) -> tuple[str | None, LogProblem | None]:
    if isinstance(raw, str):
        return raw.rstrip("\r\n"), None
    try:
        return raw.decode("utf-8").rstrip("\r\n"), None
    except UnicodeDecodeError as e:
        bad = raw[e.start]
        return None, LogProblem(line, "", f"not valid UTF-8: byte 0x{bad:02x} at column {e.start + 1}")


def parse_game_log(lines: Iterable[str | bytes], source: str = "<memory>", *,
                   skip_invalid: bool = False) -> GameLog:
    """Validate a canonical log given as lines.

    lines : iterable of str or bytes, one JSON object per line (trailing newlines allowed, blank lines skipped)
    source : str, the name used in messages and kept in ``GameLog.source``
    skip_invalid : bool, keep the valid events and list the others in ``GameLog.rejected`` instead of raising

    Raises InvalidGameLog with every problem found: always for an empty or binary input or a missing or invalid
    header; for any bad line unless ``skip_invalid``.
    """
    items = list(lines)
    for number, raw in enumerate(items, start=1):
        if (b"\x00" in raw) if isinstance(raw, bytes) else ("\x00" in raw):
            raise InvalidGameLog(source, [LogProblem(number, "", "binary file (NUL byte): not a UTF-8 JSONL game log")])
    problems: list[LogProblem] = []
    decoded: list[tuple[int, str]] = []
    for number, raw in enumerate(items, start=1):
        if number == 1 and isinstance(raw, bytes) and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        text, problem = _decode(raw, number)
        if problem is not None:
            problems.append(problem)
        elif text is not None and text.strip():
            decoded.append((number, text.lstrip("\ufeff") if number == 1 else text))
    if not decoded and not problems:
        raise InvalidGameLog(source, [LogProblem(0, "", 'empty file: expected a header line {"kind": "game", ...}')])

    header_line = min([n for n, _ in decoded] + [p.line for p in problems])
    header_problems = [p for p in problems if p.line == header_line]
    header: GameHeader | None = None
    if not header_problems:
        obj, header_problems = parse_json_line(dict(decoded)[header_line], header_line)
        if not header_problems:
            header, header_problems = validate_header(obj, header_line)
    body = [(n, t) for n, t in decoded if n != header_line]
    problems = [p for p in problems if p.line != header_line]

    if header is None:
        # Without a header the players are unknown: still report every schema problem of the other lines.
        for number, text in body:
            obj, line_problems = parse_json_line(text, number)
            if not line_problems:
                _, line_problems = validate_event_object(obj, number)
            problems.extend(line_problems)
        raise InvalidGameLog(source, sorted(header_problems + problems, key=lambda p: p.line))

    validator = GameLogValidator(header, source=source, header_line=header_line)
    bad_lines = {p.line for p in problems}
    for number, text in body:
        if number in bad_lines:
            validator.skip_line(number)
            continue
        obj, line_problems = parse_json_line(text, number)
        if not line_problems:
            _, line_problems = validator.offer(obj, number)
        else:
            validator.skip_line(number)
        problems.extend(line_problems)
    problems.sort(key=lambda p: p.line)
    if problems and not skip_invalid:
        raise InvalidGameLog(source, problems)
    return validator.game_log(problems)


def read_game_log(path: str | os.PathLike[str], *, skip_invalid: bool = False) -> GameLog:
    """Read and validate a canonical JSONL game log (docs/log-format.md).

    path : the file
    skip_invalid : bool, keep the valid events and list the rejected lines in ``GameLog.rejected``

    Raises InvalidGameLog (every problem, with line, field and reason) for an unreadable, empty or binary file,
    a missing or invalid header, and, unless ``skip_invalid``, for any invalid line.
    """
    source = os.fspath(path)
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise InvalidGameLog(source, [LogProblem(0, "", "is a directory, not a game log file")]) from None
    except OSError as e:
        raise InvalidGameLog(source, [LogProblem(0, "", f"cannot read the file: {e.strerror or e}")]) from e
    return parse_game_log(data.split(b"\n"), source, skip_invalid=skip_invalid)
