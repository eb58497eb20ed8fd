"""Play games of google/werewolf_arena offline with the seeded scripted player, each saved by the engine itself.

    git clone https://github.com/google/werewolf_arena ../werewolf_arena      # the engine, beside this checkout
    pip install jinja2 marko pyyaml tqdm                                       # what the engine's modules import
    python examples/werewolf-arena/werewolf_games.py --engine ../werewolf_arena --out DIR \\
        [--sizes 6,7,8,9,10,12] [--seeds 1-4]

For each size (players: 2 werewolves, a Seer, a Doctor and villagers) and each seed, the engine's ``GameMaster``
plays one game with :class:`werewolf_scripted.ScriptedModel` as every player's model, on one thread (so that the
seed fixes the game), and ``werewolf.logging.save_game`` writes ``DIR/<size>p_seed<NN>/game_complete.json`` and
``game_logs.json`` (``game_partial.json`` when the engine raised; the traceback is its ``error_message``). The
players are set up as the engine's ``runner.initialize_players`` does (which we do not import: its module needs
pandas and absl for the command line only). Prints one line per game: folder, winner, rounds, the engine's error.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import traceback
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from werewolf_scripted import ScriptedModel, load_engine


def setup_players(engine: SimpleNamespace, size: int) -> dict[str, Any]:
    """The players of a new game, as the engine's runner sets them up: ``size`` names drawn from the engine's list,
    a Seer, a Doctor, two Werewolves (each told the other) and villagers, each with a game view of everyone."""
    engine.config.NUM_PLAYERS = size  # read by get_player_names, and by the prompts through werewolf.model
    engine.model.NUM_PLAYERS = size
    names = engine.config.get_player_names()
    random.shuffle(names)
    m = engine.model
    seer = m.Seer(name=names.pop(), model="scripted")
    doctor = m.Doctor(name=names.pop(), model="scripted")
    wolves = [m.Werewolf(name=names.pop(), model="scripted") for _ in range(2)]
    villagers = [m.Villager(name=name, model="scripted") for name in names]
    everyone = [p.name for p in villagers] + [seer.name, doctor.name] + [w.name for w in wolves]
    for player in [seer, doctor, *wolves, *villagers]:
        other = next((w.name for w in wolves if w is not player), None) if player in wolves else None
        player.initialize_game_view(round_number=0, current_players=list(everyone), other_wolf=other)
    return {"seer": seer, "doctor": doctor, "werewolves": wolves, "villagers": villagers}


def play(engine: SimpleNamespace, model: ScriptedModel, size: int, seed: int, folder: Path) -> Any:
    """One game of ``size`` players with ``seed``, saved into ``folder`` by the engine. Returns the engine's State."""
    random.seed(seed)  # the engine's own choices (speakers, the wolf who picks, option order) use `random`
    engine.apis.generate = model.generate
    state = engine.model.State(session_id=folder.name, **setup_players(engine, size))
    master = engine.game.GameMaster(state, num_threads=1)
    with contextlib.redirect_stdout(io.StringIO()):  # the engine narrates every step with tqdm.write
        try:
            master.run_game()
        except Exception:  # the engine's own handling (runner.run_game): the error goes into the saved game
            state.error_message = traceback.format_exc()
    engine.logging.save_game(state, master.logs, str(folder))
    return state


def seeds(text: str) -> list[int]:
    """"1-4" or "1,3,7"."""
    if "-" in text:
        first, last = text.split("-", 1)
        return list(range(int(first), int(last) + 1))
    return [int(s) for s in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", type=Path, required=True, help="a checkout of google/werewolf_arena")
    parser.add_argument("--out", type=Path, required=True, help="the folder the games are saved into")
    parser.add_argument("--sizes", default="6,7,8,9,10,12", help="numbers of players (default 6,7,8,9,10,12)")
    parser.add_argument("--seeds", default="1-4", help="seeds of each size: 1-4 or 1,3,7 (default 1-4)")
    args = parser.parse_args(argv)
    model = ScriptedModel(0)
    engine = load_engine(args.engine.resolve(), model)
    engine.apis = sys.modules["werewolf.apis"]
    failed = 0
    for size in [int(s) for s in args.sizes.split(",")]:
        for seed in seeds(args.seeds):
            folder = args.out / f"{size}p_seed{seed:02d}"
            state = play(engine, ScriptedModel(seed), size, seed, folder)
            error = state.error_message.strip().splitlines()[-1] if state.error_message else ""
            failed += bool(error)
            print(f"{folder.name}: winner {state.winner or '-'}, {len(state.rounds)} rounds"
                  + (f", engine error: {error}" if error else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
