"""The ``werewolf-arena`` importer: detecting a saved game folder of google/werewolf_arena and converting it
(:mod:`.game`)."""

from __future__ import annotations

import re
from pathlib import Path

from graphmem.errors import InvalidGameLog
from graphmem.importers.base import Conversion, Unconvertible
from graphmem.importers.werewolf_arena.game import NAME, WerewolfGame
from graphmem.importers.werewolf_arena.source import game_folder, read, state_file

_HEAD = re.compile(rb'\A\s*\{\s*"session_id"\s*:')


class WerewolfArenaImporter:
    """The ``werewolf-arena`` importer (see the package docstring for the mapping)."""

    name = NAME
    game_id_from_folder = True  # the game id: "werewolf-arena-" and the folder's name
    description = ("Werewolf games saved by the google/werewolf_arena engine: a game folder (holding "
                   "game_complete.json and game_logs.json), or one of those files in it")

    def detect(self, path: Path) -> bool:
        """A folder holding game_complete.json or game_partial.json whose object starts with "session_id" and names
        a "seer" in its first 64 KiB (the engine's State, as ``werewolf.logging.save_game`` writes it), or one of
        the files of such a folder (:func:`.source.game_folder`)."""
        try:
            folder = game_folder(path)
            found = state_file(folder) if folder.is_dir() else None
            if found is None:
                return False
            with found.open("rb") as fh:
                head = fh.read(65536)
        except OSError:
            return False
        return bool(_HEAD.match(head)) and b'"seer"' in head

    def convert(self, path: Path) -> Conversion:
        """Convert one game folder (or the folder of the game file ``path`` names, :func:`.source.game_folder`):
        :func:`.source.read`, then :class:`.game.WerewolfGame`. Raises InvalidGameLog when the state file is missing
        or unreadable, or its players cannot be read; every other problem is listed in the Conversion."""
        game = WerewolfGame(read(game_folder(path)))
        try:
            return game.run().result()
        except Unconvertible as e:
            raise InvalidGameLog(str(path), [*game.out.problems, e.problem]) from None
