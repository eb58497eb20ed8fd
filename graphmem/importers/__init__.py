"""Importers for game logs of other shapes (docs/perception.md#imported-logs), and the registry that finds them.

Built in: ``traitors-plomp`` (the public LLM Traitors logs of michaelgiba/the-traitors), ``avalon-llm`` (Avalon
games of LLM agents, SuveenE/multi-round-avalon-agents), ``llmafia`` (Mafia games of people and an LLM,
niveck/LLMafia), ``werewolf-arena`` (Werewolf games saved by the engine of google/werewolf_arena) and
``avalon-nlu`` (Avalon games of people with their stated beliefs, sstepput/Avalon-NLU). A new importer (another
Werewolf corpus, say) implements :class:`Importer` (``name``, ``description``, ``detect``, ``convert``) and is
registered with :func:`register_importer`; everything else (the CLI, discovery, validation, the report of guesses)
then works for it.

Every importer is a package of the same parts, on the same three verbs:

- **read** (``source.py``, ``read(path)``): the source document in; InvalidGameLog when nothing (not even a header)
  can be made of it;
- **convert** (``game.py``): one conversion's state, emitting canonical objects into a
  :class:`~graphmem.importers.base.ConversionBuilder`, each part of the source (an item, a mission, a chat line)
  through :meth:`~graphmem.importers.base.ConversionBuilder.part`, so that a part raising
  :class:`~graphmem.importers.base.Unconvertible` is reported and left out; keywords are read tolerantly
  (:meth:`~graphmem.importers.base.ConversionBuilder.keyword`, :mod:`graphmem.importers.keywords`) and each near
  spelling recorded as a guess;
- **report** (:meth:`~graphmem.importers.base.ConversionBuilder.result`): the :class:`Conversion` (objects, their
  origins, problems, guesses), which :func:`import_game_log` runs through the canonical validator.

``importer.py`` holds the :class:`Importer` itself: ``detect`` and ``convert`` (read, convert, report).

The canonical format itself is named ``"graphmem"`` (:data:`CANONICAL`) in :func:`detect_format` and
:func:`discover`; it is read by :func:`graphmem.logs.reader.read_game_log`, not by an importer.
"""

from __future__ import annotations

from pathlib import Path

from graphmem.errors import UsageProblem, closest, did_you_mean
from graphmem.importers.avalon_llm import AvalonImporter
from graphmem.importers.avalon_nlu import AvalonNluImporter
from graphmem.importers.base import Conversion, Importer, import_game_log, validate_conversion
from graphmem.importers.llmafia import LLMafiaImporter
from graphmem.importers.traitors_plomp import TraitorsPlompImporter
from graphmem.importers.werewolf_arena import WerewolfArenaImporter
from graphmem.logs.reader import GameLog, read_game_log

__all__ = [
    "CANONICAL",
    "Conversion",
    "Importer",
    "detect_format",
    "discover",
    "get_importer",
    "import_game_log",
    "importer_names",
    "load_game_log",
    "named_by_folder",
    "register_importer",
    "validate_conversion",
]

CANONICAL = "graphmem"
"""The format name of canonical JSONL logs ("graphmem/1")."""

CANONICAL_SUFFIXES = (".jsonl", ".ndjson")

_IMPORTERS: dict[str, Importer] = {}


def register_importer(importer: Importer) -> Importer:
    """Add an importer to the registry (its ``name`` must be new and not "graphmem"). Returns it."""
    if importer.name == CANONICAL or importer.name in _IMPORTERS:
        raise ValueError(f"an importer named {importer.name!r} is already registered")
    _IMPORTERS[importer.name] = importer
    return importer


def importer_names() -> list[str]:
    """The registered importer names, sorted."""
    return sorted(_IMPORTERS)


def get_importer(name: str) -> Importer:
    """The importer called ``name``. Raises UsageProblem (CLI exit 2) listing the known names."""
    try:
        return _IMPORTERS[name]
    except KeyError:
        hint = did_you_mean(closest(name, importer_names()))
        raise UsageProblem(f"unknown log format {name!r}; known importers: {', '.join(importer_names())}"
                           + (f" ({hint})" if hint else "")) from None


def _looks_canonical(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            head = fh.readline(65536)
    except OSError:
        return False
    return b'"graphmem/1"' in head and b'"game"' in head


def detect_format(path: str | Path) -> str | None:
    """The format of one game log: "graphmem" (canonical JSONL), an importer name, or None.

    A file ending in .jsonl or .ndjson is canonical; otherwise each importer's ``detect`` is asked, then the first
    line is sniffed for a canonical header. Never raises.
    """
    path = Path(path)
    if path.is_file() and path.suffix.lower() in CANONICAL_SUFFIXES:
        return CANONICAL
    for name in importer_names():
        if _IMPORTERS[name].detect(path):
            return name
    if path.is_file() and _looks_canonical(path):
        return CANONICAL
    return None


MAX_DEPTH = 4
"""How many folders deep :func:`discover` looks for games under a folder that is not one (the Avalon corpus keeps its
games three folders down: ``avalon-llm/2_tournaments_by_player_count/5p/individual_games/game_01.json``)."""


def _is_game(path: Path, fmt: str | None) -> str | None:
    if fmt is None:
        return detect_format(path)
    if fmt == CANONICAL:
        return CANONICAL if path.is_file() and (path.suffix.lower() in CANONICAL_SUFFIXES
                                                or _looks_canonical(path)) else None
    return fmt if get_importer(fmt).detect(path) else None


def _games_in(folder: Path, fmt: str | None, depth: int) -> list[tuple[Path, str]]:
    """The games under ``folder``: its entries that are games, then (depth permitting) the games in its other
    sub-folders, every level sorted by name; hidden entries are skipped."""
    try:
        entries = sorted(child for child in folder.iterdir() if not child.name.startswith("."))
    except OSError:
        return []
    found: list[tuple[Path, str]] = []
    for child in entries:
        detected = _is_game(child, fmt)
        if detected is not None:
            found.append((child, detected))
        elif depth > 0 and child.is_dir() and not child.is_symlink():
            found.extend(_games_in(child, fmt, depth - 1))
    return found


def discover(paths: list[Path], fmt: str | None = None) -> list[tuple[Path, str]]:
    """Expand paths into ``(game log, format)`` pairs, in a stable order.

    A path that is itself one game (a canonical file, a plomp game folder or plomp.json, an Avalon game file, an
    LLMafia or Werewolf Arena game folder, an Avalon-NLU game file) yields itself. A folder that is not one game
    yields every game inside it, in its sub-folders too, up to :data:`MAX_DEPTH` folders down (a game's own folder is
    not searched further), in name order; other entries are ignored. ``fmt`` (an importer name or "graphmem") only
    looks for games of that format.

    Raises UsageProblem for a path that does not exist, a file of unknown format (or not of ``fmt``), an unknown
    ``fmt``, or a folder without games.
    """
    if fmt is not None and fmt != CANONICAL:
        get_importer(fmt)  # an unknown name is a usage error before any path is read
    found: list[tuple[Path, str]] = []
    for path in paths:
        path = Path(path)
        if not path.exists():
            raise UsageProblem(f"{path}: no such file or folder")
        detected = _is_game(path, fmt)
        if detected is not None:
            found.append((path, detected))
            continue
        if not path.is_dir():  # a file, or a device such as /dev/null
            if fmt is not None:
                what = "a canonical graphmem log" if fmt == CANONICAL else get_importer(fmt).description
                raise UsageProblem(f"{path}: not a {fmt} log ({what})")
            raise UsageProblem(f"{path}: unknown log format (known: {', '.join([CANONICAL, *importer_names()])})")
        games = _games_in(path, fmt, MAX_DEPTH)
        if not games:
            kind = f"{fmt} game logs" if fmt is not None else "game logs"
            raise UsageProblem(f"{path}: no {kind} found in this folder")
        found.extend(games)
    return found


def named_by_folder(paths: list[Path], fmt: str | None = None) -> list[tuple[Path, str]]:
    """The ``(game log, format)`` pairs of :func:`discover` whose importer makes the game id from the name of the
    game's folder (``Importer.game_id_from_folder``: traitors-plomp, llmafia, werewolf-arena). Raises as
    :func:`discover`."""
    return [(path, found) for path, found in discover(paths, fmt)
            if found != CANONICAL and get_importer(found).game_id_from_folder]


def load_game_log(path: str | Path, fmt: str | None = None, *, skip_invalid: bool = False) -> GameLog:
    """Read one game log of any known format as a validated GameLog.

    fmt : "graphmem", an importer name, or None to detect it (UsageProblem if it cannot be told)
    Raises InvalidGameLog (with every problem) as :func:`read_game_log` and :func:`import_game_log` do.
    """
    path = Path(path)
    if fmt is None:
        fmt = detect_format(path)
        if fmt is None:
            raise UsageProblem(f"{path}: unknown log format (known: {', '.join([CANONICAL, *importer_names()])})")
    if fmt == CANONICAL:
        return read_game_log(path, skip_invalid=skip_invalid)
    return import_game_log(get_importer(fmt), path, skip_invalid=skip_invalid)


register_importer(TraitorsPlompImporter())
register_importer(AvalonImporter())
register_importer(LLMafiaImporter())
register_importer(WerewolfArenaImporter())
register_importer(AvalonNluImporter())
