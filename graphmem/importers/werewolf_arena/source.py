"""Reading a saved game of google/werewolf_arena: the folder ``werewolf.logging.save_game`` writes.

``game_complete.json`` (``game_partial.json`` when the engine stopped on an error) is the engine's ``State``: the
players with their roles and each one's own ``observations``, and the ``rounds`` (who the werewolves chose, who the
Seer unmasked, who the Doctor protected, who was exiled, the debate, the votes after each debate turn, the bids).
``game_logs.json`` holds each round's model calls (``RoundLog``: the prompt and the reply of every choice); the
importer reads one thing from it, which werewolf picked the night's victim (the prompt of the ``eliminate`` call
names its player), and the tests read what each player's prompts showed them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphmem.errors import InvalidGameLog, LogProblem
from graphmem.importers.base import load_json

STATE_FILES = ("game_complete.json", "game_partial.json")
"""The engine's saved state, complete or stopped by an error (the first one present is read)."""
LOG_FILE = "game_logs.json"
"""The engine's log of every model call, by round."""

_PROMPT_PLAYER = re.compile(r"You are (?P<name>.+?) the (?P<role>Werewolf|Villager|Seer|Doctor)\.")


@dataclass(frozen=True)
class SavedGame:
    """One saved game: ``folder``, ``state_file`` (the name of the state file read), ``state`` (its object) and
    ``logs`` (the list of ``game_logs.json``, or None when the file is absent)."""

    folder: Path
    state_file: str
    state: dict[str, Any]
    logs: list[Any] | None


GAME_FILES = (*STATE_FILES, LOG_FILE)
"""The files of a saved game, any of which a user may name for the whole game (:func:`game_folder`)."""


def game_folder(path: Path) -> Path:
    """The game folder ``path`` names: ``path`` itself, or the folder of the :data:`GAME_FILES` file it is (a user
    who names ``6p_seed03/game_complete.json`` means the game ``6p_seed03``). Never raises."""
    try:
        return path.parent if path.name in GAME_FILES and not path.is_dir() else path
    except OSError:
        return path


def state_file(folder: Path) -> Path | None:
    """The saved state of a game folder (:data:`STATE_FILES`), or None. Never raises."""
    try:
        return next((folder / name for name in STATE_FILES if (folder / name).is_file()), None)
    except OSError:
        return None


def read(folder: Path) -> SavedGame:
    """A game folder's state and logs. Raises InvalidGameLog when the state file is missing, unreadable or not a
    JSON object, or ``game_logs.json`` is there but unreadable or not a list."""
    path = state_file(folder)
    if path is None:
        raise InvalidGameLog(str(folder), [LogProblem(0, "", f"no {' or '.join(STATE_FILES)} in this folder")])
    state = load_json(path, str(path))
    if not isinstance(state, dict):
        raise InvalidGameLog(str(path), [LogProblem(0, "", "expected a JSON object (the engine's State)")])
    logs: list[Any] | None = None
    if (folder / LOG_FILE).is_file():
        loaded = load_json(folder / LOG_FILE, str(folder / LOG_FILE))
        if not isinstance(loaded, list):
            raise InvalidGameLog(str(folder / LOG_FILE), [LogProblem(0, "", "expected a JSON list (one RoundLog a round)")])
        logs = loaded
    return SavedGame(folder, path.name, state, logs)


def prompt_player(log: Any) -> str | None:
    """The player a logged model call (an ``LmLog``: ``{prompt, raw_resp, result}``) was made for: the name in its
    prompt's "You are NAME the ROLE.", or None."""
    prompt = log.get("prompt") if isinstance(log, dict) else None
    m = _PROMPT_PLAYER.search(prompt) if isinstance(prompt, str) else None
    return m["name"] if m else None
