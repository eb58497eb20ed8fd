"""Importer ``traitors-plomp``: the public LLM Traitors logs of michaelgiba/the-traitors (SPEC 2.2).

Input: a game folder holding ``plomp.json`` (and optionally ``result.json``), or the ``plomp.json`` file itself.
The game id is the folder's name. ``plomp.json`` is ``{"key": ..., "buffer_items": [...]}``; items of type
``event`` are game events (``data.payload.plomp_display_event_type`` and ``plomp_display_text``), items of type
``prompt`` and ``query`` are the models' contexts and replies and are skipped.

Mapping (every event type of the 40 public games; witnesses are always set explicitly):

=========================  ==========================================================  =============
plomp event type           canonical event                                             phase
=========================  ==========================================================  =============
ROLE_SELECTED              reveal {player, role}                                       (pregame)
GAME_START                 observe {observers, text}                                   (pregame)
PRIVATE_MESSAGE            say {speaker, to: [recipient], channel private, text}       social
ROUND_TABLE_SPEECH         say {speaker, to all, channel roundtable, text}             roundtable
ROUND_TABLE_VOTE           vote {voter, target, ballot banish} + voted_for claim       roundtable
ELIMINATED_PLAYER          banish {player, votes, role_revealed}                       banishment
MURDER_SUGGESTION          say {speaker, to all, channel traitors, text, about}        night
MURDER_VOTE                vote {voter, target, ballot murder, text: reason}           night
MURDER_DECISION            observe {observers, text, about: [victim]}                  night
MURDERED_PLAYER            murder {victim, by: the living traitors}                    breakfast
FINAL_ROUND_ANNOUNCEMENT   observe {observers, text}                                   final
FINAL_ROUND_VOTE           vote {voter, ballot end_game, choice end|continue, text}    final
                           or vote {voter, target, ballot banish} + voted_for claim
FINAL_ROUND_CONTINUE       observe {observers, text}                                   final
FINAL_ROUND_SPEECH         say {speaker, to all, channel roundtable, text}             final
FINAL_ROUND_ELIMINATION    banish {player, votes} (role stays hidden)                  banishment
GAME_END                   end {winner, text}                                          (unchanged)
(an empty message)         observe {observers, text: the display text, about}          (as its type)
=========================  ==========================================================  =============

Witnesses: the players with a ``<Name>_visible: true`` tag, minus the players eliminated (murdered or banished)
by an earlier event; the victim of a murder and the banished player still witness their own elimination.

Phases and days (the logs have no phase events): each event type has a phase (table above). A ``phase`` event is
emitted when an event's phase differs from the current one. Phases of a day run in the order breakfast, social,
roundtable, final, banishment, night; the day advances when the new phase does not come later in that order than
the current one (a murder revealed at breakfast after the night; a day that starts with private messages or a
final round right after a banishment, when no murder happened that night; a second final round after a final
banishment). Day 1 starts with the first event after the role selection and GAME_START (which stay in the
pregame phase 0, day 0). So a day's round table votes stay in the round-table phase (votes alternate with
speeches: one speech, then that speaker's vote), the banishment phase is the announcement of the result, and
"MURDERED_PLAYER" opens the breakfast of the next day. The day equals the engine's ``round`` (GAME_END payload,
result.json) except when the game ends at a breakfast (the last faithful murdered): the end is then on the next
day.

Roles come from GAME_START's structured ``traitors``/``faithfuls`` when present and from ROLE_SELECTED, which
must agree. A banishment that reveals a role must agree with them too. "WAS NOT a traitor" reveals the player's
(non-traitor) role, i.e. "faithful".

Claims: role and vote claims of statements from :mod:`graphmem.logs.claims`; a ``voted_for`` claim on each banish
vote (not on murder votes, which are not statements about a banishment). ``about`` of statements and of murder
suggestions lists the players named in the text (whole words, any case; not the speaker).

Anything that does not parse is reported as a problem with its position and a text excerpt, never guessed.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem.errors import InvalidGameLog, LogProblem
from graphmem.logs.claims import ClaimExtractor
from graphmem.logs.importers.base import Conversion
from graphmem.logs.schema import FORMAT

NAME = "traitors-plomp"
SOURCE_REPOSITORY = "michaelgiba/the-traitors"
LICENCE = "MIT"

_EXCERPT = 120

# --- The text patterns. "{name}" is replaced by an alternation of the game's player names (matched ignoring
# case, longest first); every pattern must match the whole text (re.fullmatch, DOTALL: messages may span lines).
QUOTED = r"""(?P<q>["'])(?P<text>.*)(?P=q)"""
"""A message in straight double or single quotes (quotes inside it are kept: the match is greedy)."""
CURLY_QUOTED = r"\u201c(?P<text>.*)\u201d"
"""A message in curly double quotes."""

PATTERNS: dict[str, dict[str, str]] = {
    "ROLE_SELECTED": {"role": r"""(?P<q>['"]?)(?P<player>{name})(?P=q) selected as an? (?P<role>[A-Za-z_-]+)\.?"""},
    "GAME_START": {"start": r"Game started with the following players: (?P<list>\[.*\])\.?"},
    "PRIVATE_MESSAGE": {"message": r"(?P<speaker>{name}) messaged (?P<to>{name}): " + QUOTED,
                        "message_curly": r"(?P<speaker>{name}) messaged (?P<to>{name}): " + CURLY_QUOTED},
    "ROUND_TABLE_SPEECH": {"speech": r"(?P<speaker>{name}) said: " + QUOTED,
                           "speech_curly": r"(?P<speaker>{name}) said: " + CURLY_QUOTED},
    "FINAL_ROUND_SPEECH": {"speech": r"(?P<speaker>{name}) said: " + QUOTED,
                           "speech_curly": r"(?P<speaker>{name}) said: " + CURLY_QUOTED},
    "ROUND_TABLE_VOTE": {"vote": r"(?P<voter>{name}) voted to eliminate (?P<target>{name})\.?"},
    "ELIMINATED_PLAYER": {
        "banish": r"(?P<player>{name}) was BANISHED with (?P<votes>\d{1,6}) votes?\. (?P<again>{name}) WAS "
                  r"(?P<not>NOT )?an? traitor\.?"},
    "FINAL_ROUND_ELIMINATION": {
        "banish": r"(?P<player>{name}) was BANISHED with (?P<votes>\d{1,6}) votes?\. Their role remains hidden\.?"},
    "MURDER_SUGGESTION": {"suggest": r"(?P<speaker>{name}) suggests murdering (?P<target>{name})(?::\s*(?P<reason>.*))?"},
    "MURDER_VOTE": {"vote": r"(?P<voter>{name}) votes to murder (?P<target>{name})(?::\s*(?P<reason>.*))?"},
    "MURDER_DECISION": {"decision": r"The traitors have decided to murder (?P<victim>{name})\.?"},
    "MURDERED_PLAYER": {"murder": r"(?P<victim>{name}) was MURDERED by the traitors\.?"},
    "FINAL_ROUND_ANNOUNCEMENT": {
        "announce": r"\s*Final round! With (?P<count>\d{1,6}) players remaining,\s+the group must decide whether to end "
                    r"the game or eliminate another player\.\s*"},
    "FINAL_ROUND_VOTE": {
        "end_game": r"(?P<voter>{name}) votes to (?P<choice>END_GAME|CONTINUE_PLAYING)(?::\s*(?P<reason>.*))?",
        "vote": r"(?P<voter>{name}) voted to eliminate (?P<target>{name})\.?"},
    "FINAL_ROUND_CONTINUE": {
        "continue": r"The vote was not unanimous\. (?P<end>\d+) player\(s\) voted to end, (?P<cont>\d+) to "
                    r"continue\. The game will continue\.?"},
    "GAME_END": {"end": r".*?\b(?P<winner>Faithfuls|Traitors) win!.*"},
}
"""Every accepted text shape, by plomp event type and shape name."""

SHAPES: dict[str, str] = {
    "ROLE_SELECTED": "'NAME' selected as a ROLE.",
    "GAME_START": "Game started with the following players: ['NAME', ...]",
    "PRIVATE_MESSAGE": 'NAME messaged NAME: "TEXT"',
    "ROUND_TABLE_SPEECH": 'NAME said: "TEXT"',
    "FINAL_ROUND_SPEECH": 'NAME said: "TEXT"',
    "ROUND_TABLE_VOTE": "NAME voted to eliminate NAME",
    "ELIMINATED_PLAYER": "NAME was BANISHED with N votes. NAME WAS [NOT ]a traitor",
    "FINAL_ROUND_ELIMINATION": "NAME was BANISHED with N votes. Their role remains hidden.",
    "MURDER_SUGGESTION": "NAME suggests murdering NAME: REASON",
    "MURDER_VOTE": "NAME votes to murder NAME: REASON",
    "MURDER_DECISION": "The traitors have decided to murder NAME",
    "MURDERED_PLAYER": "NAME was MURDERED by the traitors.",
    "FINAL_ROUND_ANNOUNCEMENT": "Final round! With N players remaining, the group must decide ...",
    "FINAL_ROUND_VOTE": "NAME votes to END_GAME|CONTINUE_PLAYING: REASON, or NAME voted to eliminate NAME",
    "FINAL_ROUND_CONTINUE": "The vote was not unanimous. N player(s) voted to end, N to continue. ...",
    "GAME_END": "... Faithfuls|Traitors win! ...",
}

PHASE_OF: dict[str, str | None] = {
    "ROLE_SELECTED": None,
    "GAME_START": None,
    "PRIVATE_MESSAGE": "social",
    "ROUND_TABLE_SPEECH": "roundtable",
    "ROUND_TABLE_VOTE": "roundtable",
    "ELIMINATED_PLAYER": "banishment",
    "MURDER_SUGGESTION": "night",
    "MURDER_VOTE": "night",
    "MURDER_DECISION": "night",
    "MURDERED_PLAYER": "breakfast",
    "FINAL_ROUND_ANNOUNCEMENT": "final",
    "FINAL_ROUND_VOTE": "final",
    "FINAL_ROUND_CONTINUE": "final",
    "FINAL_ROUND_SPEECH": "final",
    "FINAL_ROUND_ELIMINATION": "banishment",
    "GAME_END": None,
}
"""The phase of each plomp event type (None: stays in the current phase)."""

DAY_ORDER = ("breakfast", "social", "roundtable", "final", "banishment", "night")
"""The order of phases within a day; going back in this order starts the next day."""

MAPPED_TYPES = tuple(PHASE_OF)


def mapped_types() -> tuple[str, ...]:
    """The plomp event types this importer converts."""
    return MAPPED_TYPES


def name_pattern(players: list[str]) -> str:
    """The regex alternation of player names (longest first, so "Ann" never shadows "Anne")."""
    return "(?:" + "|".join(re.escape(p) for p in sorted(players, key=len, reverse=True)) + ")"


def compile_patterns(players: list[str]) -> dict[str, dict[str, re.Pattern[str]]]:
    """:data:`PATTERNS` compiled for one game's players (case-insensitive, DOTALL)."""
    alternation = name_pattern(players)
    return {
        etype: {shape: re.compile(p.replace("{name}", alternation), re.IGNORECASE | re.DOTALL)
                for shape, p in shapes.items()}
        for etype, shapes in PATTERNS.items()
    }


def match_text(patterns: dict[str, dict[str, re.Pattern[str]]], etype: str, text: str) -> tuple[str, re.Match[str]] | None:
    """The first shape of ``etype`` whose pattern matches the whole text, as ``(shape, match)``, or None."""
    for shape, pattern in patterns.get(etype, {}).items():
        m = pattern.fullmatch(text)
        if m is not None:
            return shape, m
    return None


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= _EXCERPT else flat[: _EXCERPT - 3] + "...")


def plomp_file(path: Path) -> Path:
    """The plomp.json of a game folder, or the path itself."""
    return path / "plomp.json" if path.is_dir() else path


class _Unconvertible(Exception):
    def __init__(self, problem: LogProblem) -> None:
        super().__init__(problem.reason)
        self.problem = problem


@dataclass
class _Game:
    """The state of one conversion."""

    game_id: str
    players: list[str]
    roles: dict[str, str]
    patterns: dict[str, dict[str, re.Pattern[str]]]
    claims: ClaimExtractor
    mention: re.Pattern[str]
    canonical: dict[str, str]
    eliminated: set[str] = field(default_factory=set)
    phase: str = "pregame"
    day: int = 0
    pending_victim: str | None = None
    objects: list[dict[str, Any]] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)
    problems: list[LogProblem] = field(default_factory=list)

    def name(self, text: str) -> str:
        return self.canonical[text.casefold()]

    def living_traitors(self) -> list[str]:
        return [p for p in self.players if self.roles[p] == "traitor" and p not in self.eliminated]

    def living(self) -> list[str]:
        return [p for p in self.players if p not in self.eliminated]

    def mentions(self, text: str, exclude: str | None = None) -> list[str]:
        named = {self.name(m.group(0)) for m in self.mention.finditer(text)}
        return [p for p in self.players if p in named and p != exclude]

    def enter(self, phase: str | None, index: int, t: Any) -> None:
        if phase is None or phase == self.phase:
            return
        if self.phase == "pregame":
            self.day = max(self.day, 1)
        elif DAY_ORDER.index(phase) <= DAY_ORDER.index(self.phase):
            self.day += 1
        self.phase = phase
        obj: dict[str, Any] = {"kind": "phase", "id": f"b{index}-phase"}
        if t is not None:
            obj["t"] = t
        obj.update(day=self.day, name=phase)
        self.emit(obj, f"buffer_items[{index}]")

    def emit(self, obj: dict[str, Any], origin: str) -> None:
        self.objects.append(obj)
        self.origins.append(origin)


class TraitorsPlompImporter:
    """The ``traitors-plomp`` importer (see the module docstring for the mapping)."""

    name = NAME
    description = "LLM Traitors logs (plomp.json + result.json) of michaelgiba/the-traitors"

    def detect(self, path: Path) -> bool:
        """A folder holding plomp.json, or a .json file whose first 64 KiB mention "buffer_items"."""
        try:
            candidate = plomp_file(path)
            if not candidate.is_file() or candidate.suffix.lower() != ".json":
                return False
            with candidate.open("rb") as fh:
                return b'"buffer_items"' in fh.read(65536)
        except OSError:
            return False

    def convert(self, path: Path) -> Conversion:
        """Convert one game (folder or plomp.json). Raises InvalidGameLog when the file is unreadable, is not a
        plomp log, or names no players; every other problem is listed in the Conversion."""
        source = plomp_file(path)
        source_name = str(source)
        data = _load_json(source, source_name)
        items = data.get("buffer_items") if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise InvalidGameLog(source_name, [LogProblem(0, "buffer_items", "not a plomp log: expected a JSON "
                                                                              "object with a buffer_items list")])
        game_id = source.resolve().parent.name
        result_path = source.parent / "result.json"
        problems: list[LogProblem] = []
        result: dict[str, Any] | None = None
        if result_path.is_file():
            try:
                loaded = _load_json(result_path, str(result_path))
            except InvalidGameLog as e:
                problems.extend(LogProblem(0, f"result.json{(': ' + p.field) if p.field else ''}", p.reason)
                                for p in e.problems)
            else:
                if isinstance(loaded, dict):
                    result = loaded
                else:
                    problems.append(LogProblem(0, "result.json", "expected a JSON object"))

        players, roles, role_problems = _players_and_roles(items)
        problems.extend(role_problems)
        if not players:
            raise InvalidGameLog(source_name, problems + [LogProblem(0, "buffer_items", "no players found: no "
                                                                     "GAME_START or ROLE_SELECTED event parses")])
        game = _Game(
            game_id=game_id,
            players=players,
            roles=roles,
            patterns=compile_patterns(players),
            claims=ClaimExtractor(players, ("traitor", "faithful")),
            mention=re.compile(r"(?<!\w)" + name_pattern(players) + r"(?!\w)", re.IGNORECASE),
            canonical={p.casefold(): p for p in players},
            problems=problems,
        )
        game.emit(_header(game, result), "header")
        for index, item in enumerate(items):
            try:
                _convert_item(game, index, item)
            except _Unconvertible as e:
                game.problems.append(e.problem)
        return Conversion(game.objects, game.origins, game.problems)


def _load_json(path: Path, name: str) -> Any:
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
        raise InvalidGameLog(name, [LogProblem(e.lineno, "", f"invalid JSON: {e.msg} at column {e.colno}")]) from None
    except RecursionError:
        raise InvalidGameLog(name, [LogProblem(0, "", "invalid JSON: nested too deeply")]) from None
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        raise InvalidGameLog(name, [LogProblem(0, "", f"invalid JSON: {e}")]) from None


def _event_payload(item: Any, index: int) -> tuple[str, str, dict[str, Any]] | None:
    """``(event type, text, payload)`` of an event item, None for prompt/query items; raises _Unconvertible."""
    base = f"buffer_items[{index}]"
    if not isinstance(item, dict):
        raise _Unconvertible(LogProblem(0, base, "expected a JSON object"))
    kind = item.get("type")
    if kind in ("prompt", "query"):
        return None
    if kind != "event":
        raise _Unconvertible(LogProblem(0, f"{base}.type", f"unknown buffer item type {kind!r} (known: event, "
                                                           f"prompt, query)"))
    data = item.get("data")
    payload = data.get("payload") if isinstance(data, dict) else None
    if not isinstance(payload, dict):
        raise _Unconvertible(LogProblem(0, f"{base}.data.payload", "missing or not an object"))
    etype = payload.get("plomp_display_event_type")
    text = payload.get("plomp_display_text")
    if not isinstance(etype, str):
        raise _Unconvertible(LogProblem(0, f"{base}.data.payload.plomp_display_event_type", "missing or not a string"))
    if not isinstance(text, str):
        raise _Unconvertible(LogProblem(0, f"{base}.data.payload.plomp_display_text", "missing or not a string"))
    return etype, text, payload


def _players_and_roles(items: list[Any]) -> tuple[list[str], dict[str, str], list[LogProblem]]:
    """Players (GAME_START order, else ROLE_SELECTED order) and roles (GAME_START structured lists, then
    ROLE_SELECTED), with a problem for every disagreement."""
    problems: list[LogProblem] = []
    start_players: list[str] = []
    structured: dict[str, str] = {}
    selected: dict[str, tuple[str, int]] = {}
    generic_role = re.compile(r"""(?P<q>['"]?)(?P<player>[^'"\n]+)(?P=q) selected as an? (?P<role>[A-Za-z_-]+)\.?""")
    start = re.compile(PATTERNS["GAME_START"]["start"], re.DOTALL)
    for index, item in enumerate(items):
        try:
            parsed = _event_payload(item, index)
        except _Unconvertible:
            continue  # reported by the main pass
        if parsed is None:
            continue
        etype, text, payload = parsed
        where = f"buffer_items[{index}].data.payload"
        if etype == "ROLE_SELECTED":
            m = generic_role.fullmatch(text)
            if m:
                selected.setdefault(m["player"], (m["role"].lower(), index))
        elif etype == "GAME_START" and not start_players:
            m = start.fullmatch(text)
            listed: Any = None
            if m:
                try:
                    listed = ast.literal_eval(m["list"])
                except (ValueError, SyntaxError, MemoryError, RecursionError):
                    listed = None
            if isinstance(listed, list) and listed and all(isinstance(n, str) and n.strip() for n in listed):
                start_players = [n.strip() for n in listed]
            else:
                problems.append(LogProblem(0, f"{where}.plomp_display_text",
                                           f"cannot parse GAME_START text: expected {SHAPES['GAME_START']}, "
                                           f"got {_excerpt(text)}"))
            for key, role in (("traitors", "traitor"), ("faithfuls", "faithful")):
                value = payload.get(key)
                if value is None:
                    continue
                if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
                    problems.append(LogProblem(0, f"{where}.{key}", "expected a list of player names"))
                    continue
                for n in value:
                    structured[n] = role
    players = start_players or list(structured) or list(selected)
    known = {p.casefold(): p for p in players}
    roles: dict[str, str] = {}
    for name, role in structured.items():
        if name.casefold() not in known:
            problems.append(LogProblem(0, "GAME_START.traitors/faithfuls",
                                       f"player {name!r} is not in the GAME_START player list"))
    for name, (role, index) in selected.items():
        canonical = known.get(name.casefold())
        if canonical is None:
            problems.append(LogProblem(0, f"buffer_items[{index}].data.payload.plomp_display_text",
                                       f"ROLE_SELECTED names {name!r}, who is not in the GAME_START player list"))
            continue
        if canonical in structured and structured[canonical] != role:
            problems.append(LogProblem(0, f"buffer_items[{index}].data.payload.plomp_display_text",
                                       f"ROLE_SELECTED says {canonical} is a {role}, GAME_START says "
                                       f"{structured[canonical]}"))
        roles[canonical] = role
    for name in players:
        if name in structured:
            roles[name] = structured[name]
        if name not in roles:
            problems.append(LogProblem(0, "buffer_items", f"no role found for player {name!r} (neither GAME_START "
                                                          f"traitors/faithfuls nor ROLE_SELECTED)"))
            roles[name] = "unknown"
    return players, roles, problems


def _header(game: _Game, result: dict[str, Any] | None) -> dict[str, Any]:
    traitors = sum(1 for p in game.players if game.roles[p] == "traitor")
    metadata: dict[str, Any] = {"source_file": f"{game.game_id}/plomp.json"}
    title = f"The Traitors played by LLM agents, game {game.game_id} ({len(game.players)} players, {traitors} traitor" \
            f"{'s' if traitors != 1 else ''})"
    if result is not None:
        config = result.get("config_name")
        config_data = result.get("config_data")
        outcome = result.get("result")
        if isinstance(config, str):
            metadata["config"] = config
            title += f", configuration {config.removesuffix('.json')}"
        if isinstance(config_data, dict) and isinstance(config_data.get("participants"), list):
            models = {p.get("name"): p.get("model") for p in config_data["participants"] if isinstance(p, dict)}
            metadata["models"] = {k: v for k, v in models.items() if isinstance(k, str) and isinstance(v, str)}
        if isinstance(outcome, dict):
            metadata["result"] = {k: outcome[k] for k in ("winner_type", "rounds", "eliminated", "prize_distribution")
                                  if k in outcome}
    return {
        "kind": "game",
        "format": FORMAT,
        "game": game.game_id,
        "title": title,
        "players": [{"name": p, "role": game.roles[p]} for p in game.players],
        "source": f"{SOURCE_REPOSITORY} (plomp log of game {game.game_id})",
        "licence": f"{LICENCE} ({SOURCE_REPOSITORY})",
        "imported_from": NAME,
        "metadata": metadata,
    }


def _visible(game: _Game, item: dict[str, Any], index: int) -> list[str]:
    tags = item.get("tags")
    if not isinstance(tags, dict):
        raise _Unconvertible(LogProblem(0, f"buffer_items[{index}].tags", "missing or not an object"))
    seen: set[str] = set()
    for key, value in tags.items():
        if not key.endswith("_visible"):
            continue
        name = key[: -len("_visible")]
        if name not in game.players:
            raise _Unconvertible(LogProblem(0, f"buffer_items[{index}].tags.{key}",
                                            f"unknown player {name!r} (players: {', '.join(game.players)})"))
        if value is True:
            seen.add(name)
    return [p for p in game.players if p in seen]


def _convert_item(game: _Game, index: int, item: Any) -> None:
    parsed = _event_payload(item, index)
    if parsed is None:
        return
    etype, text, payload = parsed
    base = f"buffer_items[{index}]"
    text_field = f"{base}.data.payload.plomp_display_text"
    handler = _HANDLERS.get(etype)
    if handler is None:
        raise _Unconvertible(LogProblem(0, f"{base}.data.payload.plomp_display_event_type",
                                        f"unmapped plomp event type {etype!r}; mapped types: {', '.join(MAPPED_TYPES)}"))
    witnesses = [p for p in _visible(game, item, index) if p not in game.eliminated]
    matched = match_text(game.patterns, etype, text)
    if matched is None:
        raise _Unconvertible(LogProblem(0, text_field, f"cannot parse {etype} text: expected {SHAPES[etype]}, "
                                                       f"got {_excerpt(text)}"))
    shape, m = matched
    t = item.get("timestamp")
    ctx = _Context(game, index, etype, text, payload, witnesses, text_field)
    events = handler(ctx, shape, m)
    game.enter(PHASE_OF[etype], index, t)
    for n, event in enumerate(events):
        obj: dict[str, Any] = {"kind": event["kind"], "id": f"b{index}" if n == 0 else f"b{index}-{n}"}
        if t is not None:
            obj["t"] = t
        obj.update((k, v) for k, v in event.items() if k != "kind")
        obj["witnesses"] = witnesses
        game.emit(obj, base)
    _after(game, etype, events)


@dataclass
class _Context:
    game: _Game
    index: int
    etype: str
    text: str
    payload: dict[str, Any]
    witnesses: list[str]
    text_field: str

    def problem(self, reason: str, where: str | None = None) -> _Unconvertible:
        return _Unconvertible(LogProblem(0, where or self.text_field, f"{self.etype}: {reason}"))


def _claims_json(claims: list[Any]) -> list[dict[str, Any]]:
    return [c.model_dump() for c in claims]


def _say(ctx: _Context, m: re.Match[str], channel: str, to: str | list[str]) -> dict[str, Any]:
    g = ctx.game
    speaker = g.name(m["speaker"])
    text = m["text"]
    if not text.strip():
        # An empty message (the model answered with nothing; e.g. game 3325g7wm, buffer_items[10]) is not a
        # statement (a say needs text) but the witnesses did see it happen: an observe event keeps that.
        about = [speaker] + ([p for p in to if p != speaker] if isinstance(to, list) else [])
        return {"kind": "observe", "observers": ctx.witnesses, "text": ctx.text.strip(), "about": about}
    event: dict[str, Any] = {"kind": "say", "speaker": speaker, "to": to, "channel": channel, "text": text}
    if about := g.mentions(text, exclude=speaker):
        event["about"] = about
    if claims := g.claims.extract(text, speaker):
        event["claims"] = _claims_json(claims)
    return event


def _role_selected(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    player = ctx.game.name(m["player"])
    return [{"kind": "reveal", "player": player, "role": m["role"].lower()}]


def _game_start(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    return [{"kind": "observe", "observers": ctx.witnesses, "text": " ".join(ctx.text.split())}]


def _private_message(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    return [_say(ctx, m, "private", [ctx.game.name(m["to"])])]


def _speech(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    return [_say(ctx, m, "roundtable", "all")]


def _banish_vote(ctx: _Context, m: re.Match[str]) -> dict[str, Any]:
    voter, target = ctx.game.name(m["voter"]), ctx.game.name(m["target"])
    return {"kind": "vote", "voter": voter, "target": target, "ballot": "banish",
            "claims": [{"subject": voter, "predicate": "voted_for", "object": target, "polarity": True}]}


def _round_table_vote(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    return [_banish_vote(ctx, m)]


def _final_vote(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    if shape == "vote":
        return [_banish_vote(ctx, m)]
    event: dict[str, Any] = {"kind": "vote", "voter": ctx.game.name(m["voter"]), "ballot": "end_game",
                             "choice": "end" if m["choice"].upper() == "END_GAME" else "continue"}
    if m["reason"] and m["reason"].strip():
        event["text"] = m["reason"].strip()
    return [event]


def _banish(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    g = ctx.game
    player = g.name(m["player"])
    event: dict[str, Any] = {"kind": "banish", "player": player, "votes": int(m["votes"])}
    if ctx.etype == "ELIMINATED_PLAYER":
        if g.name(m["again"]) != player:
            raise ctx.problem(f"the text names two players ({player}, {g.name(m['again'])})")
        is_traitor = not m["not"]
        role = g.roles[player]
        if is_traitor != (role == "traitor"):
            raise ctx.problem(f"the text reveals {player} as {'a traitor' if is_traitor else 'not a traitor'}, "
                              f"but the game gave them the role {role!r}")
        event["role_revealed"] = role
    return [event]


def _murder_suggestion(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    g = ctx.game
    speaker, target = g.name(m["speaker"]), g.name(m["target"])
    about = [target] + [p for p in g.mentions(m["reason"] or "", exclude=speaker) if p != target]
    event: dict[str, Any] = {"kind": "say", "speaker": speaker, "to": "all", "channel": "traitors",
                             "text": ctx.text.strip(), "about": about}
    if claims := g.claims.extract(m["reason"] or "", speaker):
        event["claims"] = _claims_json(claims)
    return [event]


def _murder_vote(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    g = ctx.game
    event: dict[str, Any] = {"kind": "vote", "voter": g.name(m["voter"]), "target": g.name(m["target"]),
                             "ballot": "murder"}
    if m["reason"] and m["reason"].strip():
        event["text"] = m["reason"].strip()
    return [event]


def _murder_decision(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    victim = ctx.game.name(m["victim"])
    return [{"kind": "observe", "observers": ctx.witnesses, "text": ctx.text.strip(), "about": [victim]}]


def _murdered(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    g = ctx.game
    victim = g.name(m["victim"])
    if g.pending_victim is not None and g.pending_victim != victim:
        raise ctx.problem(f"{victim} was murdered, but the traitors had decided to murder {g.pending_victim}")
    event: dict[str, Any] = {"kind": "murder", "victim": victim}
    if by := g.living_traitors():
        event["by"] = by
    return [event]


def _observe(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    if ctx.etype == "FINAL_ROUND_ANNOUNCEMENT":
        living = len(ctx.game.living())
        if int(m["count"]) != living:
            raise ctx.problem(f"the text says {m['count']} players remain, but {living} are alive "
                              f"({', '.join(ctx.game.living())})")
    return [{"kind": "observe", "observers": ctx.witnesses, "text": " ".join(ctx.text.split())}]


def _game_end(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    winner = m["winner"].lower()
    structured = ctx.payload.get("winners")
    if structured is not None and (not isinstance(structured, str) or structured.lower() != winner):
        raise ctx.problem(f"the text says {winner} win, the payload says {structured!r}",
                          where=ctx.text_field.replace("plomp_display_text", "winners"))
    extra = {k: ctx.payload[k] for k in ("round", "reason", "prize_distribution") if k in ctx.payload}
    if extra:
        ctx.game.objects[0]["metadata"]["game_end"] = extra
    return [{"kind": "end", "winner": winner, "text": " ".join(ctx.text.split())}]


def _after(game: _Game, etype: str, events: list[dict[str, Any]]) -> None:
    """Update who is alive (after the event: eliminated players witness their own elimination)."""
    for event in events:
        if event["kind"] == "banish":
            game.eliminated.add(event["player"])
        elif event["kind"] == "murder":
            game.eliminated.add(event["victim"])
            game.pending_victim = None
        elif etype == "MURDER_DECISION":
            game.pending_victim = event["about"][0]


_Handler = Callable[[_Context, str, re.Match[str]], list[dict[str, Any]]]

_HANDLERS: dict[str, _Handler] = {
    "ROLE_SELECTED": _role_selected,
    "GAME_START": _game_start,
    "PRIVATE_MESSAGE": _private_message,
    "ROUND_TABLE_SPEECH": _speech,
    "ROUND_TABLE_VOTE": _round_table_vote,
    "ELIMINATED_PLAYER": _banish,
    "MURDER_SUGGESTION": _murder_suggestion,
    "MURDER_VOTE": _murder_vote,
    "MURDER_DECISION": _murder_decision,
    "MURDERED_PLAYER": _murdered,
    "FINAL_ROUND_ANNOUNCEMENT": _observe,
    "FINAL_ROUND_VOTE": _final_vote,
    "FINAL_ROUND_CONTINUE": _observe,
    "FINAL_ROUND_SPEECH": _speech,
    "FINAL_ROUND_ELIMINATION": _banish,
    "GAME_END": _game_end,
}
assert set(_HANDLERS) == set(PHASE_OF) == set(PATTERNS) == set(SHAPES)
