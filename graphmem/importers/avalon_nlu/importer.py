"""The ``avalon-nlu`` importer: detecting an Avalon-NLU game file, reading it (:mod:`.source`) and converting it
(:mod:`.game`)."""

from __future__ import annotations

import re
from pathlib import Path

from graphmem.errors import InvalidGameLog
from graphmem.importers.avalon_nlu.game import NAME, NluGame
from graphmem.importers.avalon_nlu.source import read
from graphmem.importers.base import Conversion, Unconvertible

_HEAD = re.compile(rb'\A\s*\{\s*"users"\s*:\s*\{')


class AvalonNluImporter:
    """The ``avalon-nlu`` importer (see the package docstring for the mapping)."""

    name = NAME
    game_id_from_folder = False  # the game id: the game file's name, which an upload keeps
    description = "Avalon games of people with their stated beliefs (TinyDB game files <id>.json) of sstepput/Avalon-NLU"

    def detect(self, path: Path) -> bool:
        """A .json file whose object starts with the "users" table and holds a "messages" table with "quest" and
        "turn" fields in its first 64 KiB (one TinyDB game file)."""
        try:
            if not path.is_file() or path.suffix.lower() != ".json":
                return False
            with path.open("rb") as fh:
                head = fh.read(65536)
        except OSError:
            return False
        return bool(_HEAD.match(head)) and b'"messages"' in head and b'"quest"' in head and b'"turn"' in head

    def convert(self, path: Path) -> Conversion:
        """Convert one game file: :func:`.source.read`, then :class:`.game.NluGame`. Raises InvalidGameLog when the
        file is unreadable, is not a JSON object, lacks the users or messages table, or its players cannot be read;
        every other problem is listed in the Conversion."""
        game = NluGame(read(path), path)
        try:
            return game.run().result()
        except Unconvertible as e:  # the header: nothing can be made of the rest
            raise InvalidGameLog(str(path), [*game.out.problems, e.problem]) from None
