"""The live Werewolf Arena example (examples/werewolf-arena/werewolf_live.py, issue 43) plays a whole game of
google/werewolf_arena's engine against a real ``graphmem serve``: every player's prompt reads their recall, and
every recalled memory is one of an event the engine showed that player.

The engine is not part of graphmem (Apache-2.0, never copied here): the test needs its checkout
(``$GRAPHMEM_WEREWOLF_ENGINE``, or ``werewolf_arena`` beside this checkout) and the one module it imports that
graphmem does not bring, ``marko``; without them it says so and does not run."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.server_process import ENGINE_KEY, Server

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
LIVE = ROOT / "examples" / "werewolf-arena" / "werewolf_live.py"


def engine_checkout() -> Path | None:
    for candidate in (os.environ.get("GRAPHMEM_WEREWOLF_ENGINE", ""), str(ROOT.parent / "werewolf_arena")):
        if candidate and (Path(candidate) / "werewolf" / "game.py").is_file():
            return Path(candidate)
    return None


def test_a_live_game_reads_graphmem_and_nobody_recalls_what_the_engine_did_not_show_them(
        server: Server, tmp_path: Path) -> None:
    engine = engine_checkout()
    if engine is None or importlib.util.find_spec("marko") is None:
        pytest.skip("no checkout of google/werewolf_arena beside this one (or $GRAPHMEM_WEREWOLF_ENGINE), or no "
                    "marko: see examples/werewolf-arena/README.md")
    run = subprocess.run([sys.executable, str(LIVE), "--engine", str(engine), "--url", server.url, "--key",
                          ENGINE_KEY, "--size", "6", "--seed", "3", "--save", str(tmp_path)],
                         capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout + run.stderr
    last = run.stdout.strip().splitlines()[-1]
    m = re.search(r"(\d+) events sent; recalls (\d+), memories checked (\d+), boundary violations 0; "
                  r"information_boundary rows 0; saved in .*, which converts to the events sent: True$", last)
    assert m is not None, last
    events, recalls, checked = (int(x) for x in m.groups())
    assert events > 50 and recalls > 50 and checked > recalls  # a whole game, each prompt with its recall
