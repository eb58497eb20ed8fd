"""Reading a plomp log (:func:`read`): the file of a game, its JSON, its event items, and the players and roles it
declares."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphmem.errors import InvalidGameLog, LogProblem
from graphmem.importers.base import Unconvertible, load_json
from graphmem.importers.keywords import read_keyword
from graphmem.importers.traitors_plomp.patterns import KEYWORDS, PATTERNS, SHAPES, _excerpt


def plomp_file(path: Path) -> Path:
    """The plomp.json of a game folder, or the path itself."""
    return path / "plomp.json" if path.is_dir() else path


@dataclass(frozen=True)
class PlompSource:
    """One plomp game as read: ``game_id`` (its folder's name), the ``buffer_items``, ``result.json`` (None when
    absent or unreadable), the players and their roles, and the problems met while reading (result.json, roles)."""

    game_id: str
    items: list[Any]
    result: dict[str, Any] | None
    players: list[str]
    roles: dict[str, str]
    problems: list[LogProblem]


def read(path: Path) -> PlompSource:
    """Read one game (its folder or its plomp.json). Raises InvalidGameLog when the file is unreadable, is not a
    plomp log, or names no players."""
    source = plomp_file(path)
    source_name = str(source)
    data = load_json(source, source_name)
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
            loaded = load_json(result_path, str(result_path))
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
    return PlompSource(game_id, items, result, players, roles, problems)


def _event_payload(item: Any, index: int) -> tuple[str, str, dict[str, Any]] | None:
    """``(event type, text, payload)`` of an event item, None for prompt/query items; raises Unconvertible."""
    base = f"buffer_items[{index}]"
    if not isinstance(item, dict):
        raise Unconvertible(LogProblem(0, base, "expected a JSON object"))
    kind = item.get("type")
    if kind in ("prompt", "query"):
        return None
    if kind != "event":
        raise Unconvertible(LogProblem(0, f"{base}.type", f"unknown buffer item type {kind!r} (known: event, "
                                                           f"prompt, query)"))
    data = item.get("data")
    payload = data.get("payload") if isinstance(data, dict) else None
    if not isinstance(payload, dict):
        raise Unconvertible(LogProblem(0, f"{base}.data.payload", "missing or not an object"))
    etype = payload.get("plomp_display_event_type")
    text = payload.get("plomp_display_text")
    if not isinstance(etype, str):
        raise Unconvertible(LogProblem(0, f"{base}.data.payload.plomp_display_event_type", "missing or not a string"))
    if not isinstance(text, str):
        raise Unconvertible(LogProblem(0, f"{base}.data.payload.plomp_display_text", "missing or not a string"))
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
        except Unconvertible:
            continue  # reported by the main pass
        if parsed is None:
            continue
        written_type, text, payload = parsed
        etype = read_keyword(written_type, ("ROLE_SELECTED", "GAME_START")).keyword  # guesses: the main pass
        where = f"buffer_items[{index}].data.payload"
        if etype == "ROLE_SELECTED":
            m = generic_role.fullmatch(text)
            if m:
                role = read_keyword(m["role"], KEYWORDS["role"]).keyword or m["role"].lower()
                selected.setdefault(m["player"], (role, index))
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
    for name in structured:
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
