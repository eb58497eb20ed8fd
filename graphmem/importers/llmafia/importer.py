"""The ``llmafia`` importer: detecting an LLMafia game folder and converting it (:mod:`.game`)."""

from __future__ import annotations

from pathlib import Path

from graphmem.errors import InvalidGameLog
from graphmem.importers.base import Conversion, Unconvertible
from graphmem.importers.llmafia.game import NAME, MafiaGame
from graphmem.importers.llmafia.source import CHATS, read


class LLMafiaImporter:
    """The ``llmafia`` importer (see the package docstring for the mapping)."""

    name = NAME
    game_id_from_folder = True  # the game id: "llmafia-" and the folder's name
    description = "Mafia games of people and an LLM (game folders with config.json and the public chats) of niveck/LLMafia"

    def detect(self, path: Path) -> bool:
        """A folder holding config.json and public_manager_chat.txt."""
        try:
            return path.is_dir() and (path / "config.json").is_file() and (path / CHATS["manager"]).is_file()
        except OSError:
            return False

    def convert(self, path: Path) -> Conversion:
        """Convert one game folder: :func:`.source.read` (its config.json), then :class:`.game.MafiaGame` (which
        reads the chats as it goes, reporting their lines). Raises InvalidGameLog when config.json is unreadable or
        names no players; every other problem is listed in the Conversion."""
        game = MafiaGame(path, read(path))
        try:
            return game.run().result()
        except Unconvertible as e:
            raise InvalidGameLog(str(path), [*game.out.problems, e.problem]) from None
