"""A live game of google/werewolf_arena with graphmem as every player's memory, over graphmem's HTTP API.

    graphmem serve &                                  # with a Neo4j (graphmem neo4j start); GRAPHMEM_ENGINE_KEY optional
    python examples/werewolf-arena/werewolf_live.py --engine ../werewolf_arena --url http://127.0.0.1:8750 \\
        [--key KEY] [--size 6] [--seed 3] [--k 12] [--game ID] [--save DIR]

The engine's ``GameMaster`` plays one game with the seeded scripted player (``werewolf_scripted.py``) on one thread.
Two things change, both from outside the engine (its checkout is imported, never edited):

- **Events in as the engine produces them.** Before every model call the engine makes, what happened since the last
  call goes to graphmem (``POST /games/{game}/events`` with ``after``): the engine's state so far, converted by the
  ``werewolf-arena`` importer (the one mapping of the saved games, :mod:`graphmem.importers.werewolf_arena`) and cut
  where the engine is (the night's secrets once the night is over, each debate turn and the votes the engine asks
  for after it, the ballot and the exile, each summary); the ``end`` last.
- **Each player's prompt reads graphmem.** The player's agent recalls with its own token (``POST
  /games/{game}/players/{player}/recall``: a topic for the action, the other living players as participants) and
  the prompt's "YOUR PRIVATE OBSERVATIONS" shows the recall block in place of the engine's observation list.

Every recalled memory is checked against the engine's own view of that player at that moment
(``werewolf_view.py``: their role, their partner, their observations and the debate their prompts showed them): a
memory of anything else is a boundary violation. At the end the ``information_boundary`` query must find nothing.
Prints a last line ``recalls N, memories checked M, boundary violations V``. Exit codes (one meaning each):

- 0: the game ended, V is 0, the query found nothing (and, with ``--save``, the saved game converts to the events
  sent);
- 1: a boundary violation (a recalled memory the engine never showed its owner, or a row of the query);
- 2: bad usage: an argument argparse refuses, or an ``--engine`` that is not an importable checkout of the engine
  (no ``werewolf/game.py``, or a module it needs is missing);
- 3: the game did not end as played: the engine raised (google/werewolf_arena removes the night's target from every
  player's list of remaining players even when the Doctor saved them, so a game can reach a vote with nobody left
  to vote for), the conversion of the game so far changed an event already sent, or the saved game converts
  otherwise;
- 4: graphmem failed: nothing answers at ``--url``, or a request got another answer than the one it needs (the
  message names the request, the status and graphmem's reason).

Each failure is one line on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import os
import random
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
from werewolf_games import setup_players
from werewolf_scripted import ScriptedModel, load_engine
from werewolf_view import observed

from graphmem.importers.werewolf_arena.game import WerewolfGame
from graphmem.importers.werewolf_arena.importer import WerewolfArenaImporter
from graphmem.importers.werewolf_arena.source import STATE_FILES, SavedGame

EXIT_OK, EXIT_VIOLATION, EXIT_USAGE, EXIT_GAME, EXIT_GRAPHMEM = 0, 1, 2, 3, 4
"""The exit codes of the module docstring (argparse's own is EXIT_USAGE)."""

TOPICS = {"remove": "who to eliminate tonight", "protect": "who to protect tonight",
          "investigate": "who to investigate tonight", "bid": "who is a werewolf", "debate": "who is a werewolf",
          "vote": "who to vote out", "summarize": "what happened this round"}
"""The recall topic of each action the engine asks a model for."""


class GraphmemFailed(Exception):
    """graphmem did not answer as a request needs (exit code 4): nothing at the URL, or another status."""


class FeedBroken(Exception):
    """The conversion of the game so far changed an event already sent (exit code 3)."""


class Graphmem:
    """The engine's side of graphmem's HTTP API: the game, its events, the players' tokens and recalls."""

    def __init__(self, url: str, key: str | None, game: str) -> None:
        self.http = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"} if key else {},
                                 timeout=120)
        self.url, self.game = url, game
        self.events: list[dict[str, Any]] = []  # the events sent so far (their number: the next batch's `after`)
        self.tokens: dict[str, str] = {}

    def call(self, method: str, path: str, expect: int = 200, **kwargs: Any) -> Any:
        """The JSON answer of one request. Raises GraphmemFailed naming the request when nothing answers or the
        status is not ``expect``."""
        return answered(f"{method} {path}", expect, lambda: self.http.request(method, path, **kwargs), self.url)

    def start(self, header: dict[str, Any]) -> None:
        """Create the game and mint one token per player's agent."""
        self.call("POST", "/games", expect=201, json={**header, "game": self.game})
        for player in (p["name"] for p in header["players"]):
            self.tokens[player] = self.call("POST", f"/games/{self.game}/players/{player}/tokens",
                                            expect=201)["token"]

    def send(self, events: list[dict[str, Any]]) -> None:
        """The events after the ones sent, as one batch. Raises FeedBroken when ``events`` does not begin with the
        events sent (the engine's game converted so far must only grow), GraphmemFailed as :meth:`call`."""
        changed = next((i for i, sent in enumerate(self.events) if i >= len(events) or events[i] != sent), None)
        if changed is not None:
            raise FeedBroken(f"event {changed} of the game changed after it was sent: {self.events[changed]}")
        if len(events) > len(self.events):
            report = self.call("POST", f"/games/{self.game}/events", json={"events": events[len(self.events):],
                                                                          "after": len(self.events)})
            self.events = list(events)
            assert report["total_events"] == len(self.events), report

    def recall(self, player: str, topic: str, participants: list[str], k: int) -> dict[str, Any]:
        """The player's recall, with the player's own token (what their agent may do, and nothing more). Raises
        GraphmemFailed as :meth:`call`."""
        result: dict[str, Any] = answered(
            f"{player}'s recall", 200, lambda: httpx.post(
                f"{self.url}/games/{self.game}/players/{player}/recall", timeout=120,
                headers={"Authorization": f"Bearer {self.tokens[player]}"},
                json={"topic": topic, "participants": participants, "k": k}), self.url)
        return result


def answered(what: str, expect: int, send: Callable[[], httpx.Response], url: str) -> Any:
    """The JSON of the answer ``send()`` gets. Raises GraphmemFailed naming ``what``: nothing answers at ``url``
    (a connection refused or timed out), or a status other than ``expect`` (with graphmem's reason)."""
    try:
        answer = send()
    except httpx.HTTPError as e:
        raise GraphmemFailed(f"{what}: no answer from graphmem at {url} ({type(e).__name__}: {e}); is `graphmem "
                             "serve` running there (--url, $GRAPHMEM_URL)?") from None
    if answer.status_code != expect:
        raise GraphmemFailed(f"{what}: expected {expect}, got {answer.status_code}: {answer.text}")
    return answer.json()


def event_id(memory: dict[str, Any]) -> str:
    """The id of the event a recalled memory is of (its ``event``: the id, or the event's uid ``game/event/id``)."""
    event = str(memory.get("event") or "")
    return event.rsplit("/event/", 1)[-1]


class Live:
    """One live game: the engine, graphmem, the feed of events and the check of every recall."""

    def __init__(self, engine: SimpleNamespace, master: Any, memory: Graphmem, k: int, name: str) -> None:
        self.engine, self.master, self.memory, self.k, self.name = engine, master, memory, k, name
        self.debates: dict[str, set[str]] = {}  # {player: the debate turns their prompts showed them}
        self.recalls = self.checked = 0
        self.violations: list[str] = []
        self.started = False

    # -- events in -------------------------------------------------------------------------------------------------

    def events(self, action: str | None) -> list[dict[str, Any]]:
        """The canonical objects of the game so far (the header first), as far as the engine has settled them when
        it asks for ``action`` (None: the game is over, everything)."""
        state = self.engine.model.to_dict(self.master.state)
        logs = self.engine.model.to_dict(self.master.logs)
        rounds: list[Any] = state.get("rounds") or []
        r = len(rounds) - 1
        cut: str | None = None
        if action in ("remove", "protect", "investigate"):
            state["rounds"] = rounds[:r]  # the night under way: its choices are told once it is over
        elif action in ("bid", "debate", "vote") and r >= 0:
            current = copy.deepcopy(rounds[r])
            debate = current.get("debate") or []
            # the debate so far and the votes the engine asked for after each turn but the last; the ballot is not
            # cast yet (a placeholder in its place, cut off with the vote phase)
            current["votes"] = (current.get("votes") or [])[:max(len(debate) - 1, 0)] + ([{}] if debate else [])
            current["exiled"] = None
            state["rounds"] = [*rounds[:r], current]
            cut = f"r{r}-vote"
        elif action == "summarize":
            cut = f"r{r}-summary-"  # written one by one: they go in with the next night's events
        conversion = WerewolfGame(SavedGame(Path(self.name), STATE_FILES[0], state, logs)).run().result()
        objects = conversion.objects
        if cut is not None:
            stop = next((i for i, o in enumerate(objects) if str(o.get("id", "")).startswith(cut)), len(objects))
            objects = objects[:stop]
        return objects

    def sync(self, action: str | None) -> None:
        objects = self.events(action)
        if not self.started:
            self.memory.start(objects[0])
            self.started = True
        self.memory.send(objects[1:])

    # -- the engine's view of a player, and the check of a recall ----------------------------------------------------

    def view(self, player: Any) -> set[str]:
        """The events the engine has shown ``player`` so far: their role, their partner, their observations and the
        debate their prompts showed (this one's included)."""
        shown = {f"role-{player.name}"}
        if player.gamestate.other_wolf:
            shown.add(f"wolf-{player.name}-{player.gamestate.other_wolf}")
        shown.update(observed(player.name, line) for line in player.observations)
        r = len(self.master.state.rounds) - 1
        seen = self.debates.setdefault(player.name, set())
        seen.update(f"r{r}-debate{i + 1}" for i in range(len(player.gamestate.debate)))
        return shown | seen

    def check(self, player: Any, recalled: list[dict[str, Any]]) -> None:
        shown = self.view(player)
        for m in recalled:
            self.checked += 1
            if event_id(m) not in shown:
                self.violations.append(f"{player.name} recalled {event_id(m)!r} ({m.get('line', '')[:80]!r}), "
                                       "which the engine never showed them")

    # -- the engine's hooks ------------------------------------------------------------------------------------------

    def before(self, player: Any, action: str) -> str:
        """Before ``player``'s model call for ``action``: the events so far in, then the player's recall block,
        checked."""
        self.sync(action)
        others = [p for p in player.gamestate.current_players if p != player.name]
        result = self.memory.recall(player.name, TOPICS.get(action, "who is a werewolf"), others, self.k)
        self.recalls += 1
        self.check(player, result["memories"])
        block: str = result["prompt"]
        return block

    def install(self) -> None:
        """Wrap the engine's ``Player._generate_action`` (recall first) and ``Player._get_game_state`` (the recall
        block as the observations); the engine's code is not changed. A later game of the same process wraps the
        engine's own methods again, not this game's wrappers."""
        player_class = self.engine.model.Player
        if not hasattr(player_class, "_engine_generate_action"):  # the engine's own, once per process
            player_class._engine_generate_action = player_class._generate_action
            player_class._engine_get_game_state = player_class._get_game_state
        generate: Callable[..., Any] = player_class._engine_generate_action
        game_state: Callable[..., dict[str, Any]] = player_class._engine_get_game_state
        live = self

        def generate_action(player: Any, action: str, options: list[str] | None = None) -> Any:
            player._graphmem_block = live.before(player, action)
            return generate(player, action, options)

        def get_game_state(player: Any, **kwargs: Any) -> dict[str, Any]:
            state = game_state(player, **kwargs)
            block = getattr(player, "_graphmem_block", "")
            state["observations"] = [block.strip()] if block.strip() else []
            return state

        player_class._generate_action = generate_action
        player_class._get_game_state = get_game_state


def play(args: argparse.Namespace, engine: SimpleNamespace) -> int:
    """Play one game (see the module docstring): its exit code. Raises GraphmemFailed when graphmem fails."""
    memory = Graphmem(args.url, args.key, args.game or f"werewolf-live-{args.size}p-seed{args.seed}-"
                                                          f"{uuid.uuid4().hex[:6]}")
    memory.call("GET", "/health")  # graphmem answers at --url before the game starts
    name = f"live-{args.size}p_seed{args.seed:02d}"
    random.seed(args.seed)
    state = engine.model.State(session_id=name, **setup_players(engine, args.size))
    master = engine.game.GameMaster(state, num_threads=1)
    live = Live(engine, master, memory, args.k, name)
    live.install()
    print(f"graphmem at {args.url}: game {memory.game}, {args.size} players, seed {args.seed}")
    stopped = ""
    with contextlib.redirect_stdout(io.StringIO()):  # the engine narrates every step with tqdm.write
        try:
            master.run_game()
        except (GraphmemFailed, FeedBroken):  # ours, raised inside the engine's calls: not the engine's
            raise
        except Exception as e:  # the engine's own errors end the game, as its runner records them
            stopped = f"{type(e).__name__}: {e}"
    if not stopped:
        live.sync(None)  # the rest, and the end: the players' tokens stop working
    same = ""
    if args.save and not stopped:  # the game saved by the engine converts to the very events sent live
        engine.logging.save_game(state, master.logs, str(args.save / name))
        converts = WerewolfArenaImporter().convert(args.save / name).objects[1:] == memory.events
        same = f"; saved in {args.save / name}, which converts to the events sent: {converts}"
        stopped = "" if converts else "the saved game does not convert to the events sent"
    leaks = memory.call("POST", "/queries/information_boundary", json={"params": {"game": memory.game}})
    rows = leaks.get("rows", [])
    for violation in live.violations[:20]:
        print(f"  violation: {violation}")
    if stopped:
        print(f"the game did not end well in round {len(state.rounds) - 1}: {stopped}")
    print(f"winner {state.winner or '-'} after {len(state.rounds)} rounds; {len(memory.events)} events sent; recalls "
          f"{live.recalls}, memories checked {live.checked}, boundary violations {len(live.violations)}; "
          f"information_boundary rows {len(rows)}{same}")
    if live.violations or rows:
        return EXIT_VIOLATION
    return EXIT_GAME if stopped else EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, load the engine and play: the exit code of the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", type=Path, required=True, help="a checkout of google/werewolf_arena")
    parser.add_argument("--url", default=os.environ.get("GRAPHMEM_URL", "http://127.0.0.1:8750"))
    parser.add_argument("--key", default=os.environ.get("GRAPHMEM_ENGINE_KEY"), help="the engine key, if set")
    parser.add_argument("--size", type=int, default=6, help="players (default 6: 2 werewolves, Seer, Doctor)")
    parser.add_argument("--seed", type=int, default=3, help="the seed of the engine and the scripted player")
    parser.add_argument("--k", type=int, default=12, help="memories per recall (default 12)")
    parser.add_argument("--game", help="the game id in graphmem (default: a new one)")
    parser.add_argument("--save", type=Path, help="also save the game with the engine's save_game into DIR/NAME")
    args = parser.parse_args(argv)  # exit 2 on bad arguments, with argparse's message
    try:
        engine = load_engine(args.engine.resolve(), ScriptedModel(args.seed, keep_prompts=True))
    except ImportError as e:
        missing = f" (pip install {e.name})" if isinstance(e, ModuleNotFoundError) and e.name else ""
        parser.error(f"--engine {args.engine}: cannot import the engine: {e}{missing}")  # exit 2
    try:
        return play(args, engine)
    except GraphmemFailed as e:
        print(f"werewolf_live.py: graphmem failed: {e}", file=sys.stderr)
        return EXIT_GRAPHMEM
    except FeedBroken as e:
        print(f"werewolf_live.py: the game cannot be fed as played: {e}", file=sys.stderr)
        return EXIT_GAME


if __name__ == "__main__":
    sys.exit(main())
