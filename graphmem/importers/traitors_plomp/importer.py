"""The ``traitors-plomp`` importer itself: detecting a plomp game, and converting it item by item.

:meth:`TraitorsPlompImporter.convert` reads the log (:mod:`.source`), writes the game header, then converts each
event item: its witnesses, its text matched against :mod:`.patterns`, its handler (:mod:`.mapping`), the phase it
enters (:mod:`.phases`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from graphmem.claims.extract import ClaimExtractor
from graphmem.errors import Guess, LogProblem
from graphmem.importers.base import Conversion, Unconvertible
from graphmem.importers.keywords import read_keyword
from graphmem.importers.traitors_plomp.game import _Context, _Game
from graphmem.importers.traitors_plomp.mapping import _HANDLERS, MAPPED_TYPES, _after
from graphmem.importers.traitors_plomp.patterns import (
    KEYWORDS,
    SHAPES,
    _excerpt,
    compile_patterns,
    match_text,
    name_pattern,
    slots_of,
)
from graphmem.importers.traitors_plomp.phases import PHASE_OF, day_after
from graphmem.importers.traitors_plomp.source import _event_payload, plomp_file, read
from graphmem.logs.schema import FORMAT

NAME = "traitors-plomp"
SOURCE_REPOSITORY = "michaelgiba/the-traitors"
LICENCE = "MIT"


class TraitorsPlompImporter:
    """The ``traitors-plomp`` importer (see the package docstring for the mapping)."""

    name = NAME
    game_id_from_folder = True  # the game id: the folder's name
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
        """Convert one game (folder or plomp.json): :func:`.source.read`, then each event item on the builder.
        Raises InvalidGameLog when the file is unreadable, is not a plomp log, or names no players; every other
        problem is listed in the Conversion."""
        source = read(path)
        players = source.players
        game = _Game(
            game_id=source.game_id,
            players=players,
            roles=source.roles,
            patterns=compile_patterns(players),
            claims=ClaimExtractor(players, ("traitor", "faithful")),
            mention=re.compile(r"(?<!\w)" + name_pattern(players) + r"(?!\w)", re.IGNORECASE),
            canonical={p.casefold(): p for p in players},
        )
        game.out.problems.extend(source.problems)
        game.out.emit(_header(game, source.result), "header")
        for index, item in enumerate(source.items):
            game.out.part(_convert_item, game, index, item)
        return game.out.result()


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
        raise Unconvertible(LogProblem(0, f"buffer_items[{index}].tags", "missing or not an object"))
    seen: set[str] = set()
    for key, value in tags.items():
        if not key.endswith("_visible"):
            continue
        name = key[: -len("_visible")]
        if name not in game.players:
            raise Unconvertible(LogProblem(0, f"buffer_items[{index}].tags.{key}",
                                            f"unknown player {name!r} (players: {', '.join(game.players)})"))
        if value is True:
            seen.add(name)
    return [p for p in game.players if p in seen]


NAME_GROUPS = ("speaker", "to", "voter", "target", "victim", "player", "again")
"""The groups of :data:`.patterns.PATTERNS` that hold a player's name."""


def _convert_item(game: _Game, index: int, item: Any) -> None:
    parsed = _event_payload(item, index)
    if parsed is None:
        return
    written_type, text, payload = parsed
    base = f"buffer_items[{index}]"
    text_field = f"{base}.data.payload.plomp_display_text"
    type_field = f"{base}.data.payload.plomp_display_event_type"
    guesses: list[Guess] = []
    reading = read_keyword(written_type, MAPPED_TYPES)
    if reading.keyword is None:
        raise Unconvertible(LogProblem(0, type_field, f"unmapped plomp event type {written_type!r} "
                                                       f"({reading.reason}); mapped types: {', '.join(MAPPED_TYPES)}"))
    etype = reading.keyword
    if reading.guessed:
        guesses.append(Guess(type_field, written_type, etype))
    handler = _HANDLERS[etype]
    witnesses = [p for p in _visible(game, item, index) if p not in game.eliminated]
    matched = match_text(game.patterns, etype, text)
    if matched is None:
        raise Unconvertible(LogProblem(0, text_field, f"cannot parse {etype} text: expected {SHAPES[etype]}, "
                                                       f"got {_excerpt(text)}"))
    shape, m = matched
    keywords: dict[str, str] = {}
    for slot in slots_of(m):
        read = read_keyword(m[slot], KEYWORDS[slot])
        if read.keyword is None:
            raise Unconvertible(LogProblem(0, text_field, f"cannot read {etype} text: {read.reason}; expected "
                                                           f"{SHAPES[etype]}"))
        keywords[slot] = read.keyword
        if read.guessed:
            guesses.append(Guess(text_field, m[slot], read.keyword))
    for group in NAME_GROUPS:  # names are matched ignoring case: another case is read as the name, and reported
        written = m.groupdict().get(group)
        if written is not None and written not in game.players:
            guesses.append(Guess(text_field, written, game.name(written)))
    t = item.get("timestamp")
    phase = PHASE_OF[etype]
    day = day_after(game.phase, game.day, phase) if phase is not None and phase != game.phase else game.day
    ctx = _Context(game, index, etype, text, payload, witnesses, text_field, keywords, day)
    events = handler(ctx, shape, m)
    game.enter(PHASE_OF[etype], index, t)
    for n, event in enumerate(events):
        obj: dict[str, Any] = {"kind": event["kind"], "id": f"b{index}" if n == 0 else f"b{index}-{n}"}
        if t is not None:
            obj["t"] = t
        obj.update((k, v) for k, v in event.items() if k != "kind")
        obj["witnesses"] = witnesses
        if n == 0:  # the item's readings go with its first event (after the phase event it may open)
            for g in guesses:
                game.out.guess(g.where, g.read, g.taken_as)
        game.out.emit(obj, base)
    _after(game, etype, events)
