"""How much of what players say the stance extractor reads, over game logs of any format
(:mod:`graphmem.claims.coverage`; docs/perception.md#claims).

    python -m bench.stance_coverage PATH...      # files or folders of game logs, canonical or any importer's

prints the games, the statements stances are read from, those naming another player, those of them with a stance on
a player they name (the share), and the stance claims.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from graphmem.claims.coverage import StanceCoverage, stance_coverage
from graphmem.importers import discover, load_game_log


def main(argv: Sequence[str] | None = None) -> int:
    """Print the coverage of the game logs under the given paths; exit status 2 without a path."""
    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        print("usage: python -m bench.stance_coverage PATH...", file=sys.stderr)
        return 2
    total = StanceCoverage()
    games = 0
    for path, fmt in discover(paths):
        log = load_game_log(path, fmt)
        total += stance_coverage(log.header.player_names, (logged.event for logged in log.events))
        games += 1
    print(f"{games} games: {total.statements} statements, {total.naming} naming another player, "
          f"{total.with_stance} of them with a stance on a player they name ({total.share:.0%}); "
          f"{total.stances} stance claims")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
