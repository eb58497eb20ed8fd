"""The ``avalon-llm`` importer: detecting an Avalon game file, reading it (:mod:`.source`) and converting it
(:mod:`.game`)."""

from __future__ import annotations

import re
from pathlib import Path

from graphmem.errors import InvalidGameLog
from graphmem.importers.avalon_llm.game import NAME, AvalonGame
from graphmem.importers.avalon_llm.source import read
from graphmem.importers.base import Conversion, Unconvertible

_HEAD = re.compile(rb'\A\s*\{\s*"game_id"\s*:')


class AvalonImporter:
    """The ``avalon-llm`` importer (see the package docstring for the mapping)."""

    name = NAME
    game_id_from_folder = False  # the game id: the log's own game_id
    description = "Avalon games of LLM agents (individual_games/game_NN.json) of SuveenE/multi-round-avalon-agents"

    def detect(self, path: Path) -> bool:
        """A .json file whose object starts with "game_id" and mentions "missions" in its first 64 KiB (one game;
        ``all_games.json`` starts with "session_id")."""
        try:
            if not path.is_file() or path.suffix.lower() != ".json":
                return False
            with path.open("rb") as fh:
                head = fh.read(65536)
        except OSError:
            return False
        return bool(_HEAD.match(head)) and b'"missions"' in head

    def convert(self, path: Path) -> Conversion:
        """Convert one game file: :func:`.source.read`, then :class:`.game.AvalonGame`. Raises InvalidGameLog when
        the file is unreadable, is not a JSON object, or its header (game id, players, roles) cannot be read; every
        other problem is listed in the Conversion."""
        game = AvalonGame(read(path), path)
        try:
            return game.run().result()
        except Unconvertible as e:  # the header: nothing can be made of the rest
            raise InvalidGameLog(str(path), [*game.out.problems, e.problem]) from None
