"""What the google/werewolf_arena engine showed each player of a saved game, read from the engine's own files and
nothing of graphmem's: the reference the Werewolf boundary tests hold graphmem's memories to (issue 43), and the
live example (``werewolf_live.py``) each recalled memory.

A player was shown (each item named by the id of the canonical event the ``werewolf-arena`` importer makes of it,
see ``graphmem/importers/werewolf_arena/__init__.py``):

- every line of their own ``observations`` in ``game_complete.json``, each read with one of :data:`OBSERVATIONS`
  (the engine's sentences; a line none of them reads fails the reading: nothing is skipped);
- their own role, which the engine gives each player at the start (``players[NAME].role``; it opens every prompt
  they get, "You are NAME the ROLE.", but a villager removed in the first night is never prompted);
- what their prompts in ``game_logs.json`` showed them besides: a werewolf's partner ("The other Werewolf is
  NAME.") and the debate of the round ("ROUND N DEBATE:"), each line checked to be the engine's recorded line of
  that turn.

:func:`mismatches` compares that with the events a player's memories are of.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_N = r"(?P<who>[A-Z][A-Za-z]+)"
OBSERVATIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), key) for p, key in (
    (rf"During the night, (?:we|I) decided to eliminate {_N}\.", "r{round}-eliminate"),
    (rf"During the night, I chose to protect {_N}", "r{round}-protect"),
    (rf"During the night, I decided to investigate {_N} and learned they are an? (?:Werewolf|Villager|Seer|Doctor)\.",
     "r{round}-unmask"),
    (rf"Moderator Announcement: The Werewolves removed {_N} from the game during the night\.", "r{round}-morning"),
    (r"Moderator Announcement: No one was removed from the game during the night\.", "r{round}-morning"),
    (rf"After the debate, I voted to remove {_N} from the game\.", "r{round}-vote-{me}"),
    (rf"Moderator Announcement: The majority voted to remove {_N} from the game\.", "r{round}-exile"),
    (r"Moderator Announcement: A majority vote was not reached, so no one was removed from the game\.",
     "r{round}-exile"),
    (r"Summary: .+", "r{round}-summary-{me}"),
))
"""The engine's observation sentences (``werewolf/game.py``, ``werewolf/model.py``) and the event each one is."""

_ROUND = re.compile(r"Round (?P<round>\d+): (?P<text>.*)", re.DOTALL)
_ME = re.compile(r"You are (?P<name>[A-Z][A-Za-z]+) the (?P<role>Werewolf|Villager|Seer|Doctor)\.")
_PARTNER = re.compile(r"The other Werewolf(?: is|,) (?P<name>[A-Z][A-Za-z]+)")
_DEBATE = re.compile(r"ROUND (?P<round>\d+) DEBATE:\n(?P<lines>.*?)(?:\n\n|\Z)", re.DOTALL)


def observed(player: str, line: str) -> str:
    """The event one observation line of ``player`` is. Raises ValueError for a line no pattern reads."""
    m = _ROUND.fullmatch(line)
    if m is None:
        raise ValueError(f"{player}: an observation without its round: {line!r}")
    for pattern, key in OBSERVATIONS:
        if pattern.fullmatch(m["text"]):
            return key.format(round=m["round"], me=player)
    raise ValueError(f"{player}: an observation no pattern reads: {line!r}")


def logged_calls(logs: list[Any]) -> Iterator[dict[str, Any]]:
    """Every model call (``LmLog``) of ``game_logs.json``: the night's, each bid, debate turn, vote and summary."""
    for round_log in logs:
        for key in ("eliminate", "investigate", "protect"):
            if isinstance(round_log.get(key), dict):
                yield round_log[key]
        for turn in round_log.get("bid", []):
            yield from (entry[1] for entry in turn)
        yield from (entry[1] for entry in round_log.get("debate", []))
        for turn in round_log.get("votes", []):
            yield from (vote["log"] for vote in turn)
        yield from (entry[1] for entry in round_log.get("summaries", []))


def shown(folder: Path) -> dict[str, set[str]]:
    """For each player of the saved game in ``folder``, the ids of the events the engine showed them.

    Raises ValueError when an observation cannot be read, or a prompt's debate is not the engine's recorded debate.
    """
    state = json.loads((folder / "game_complete.json").read_text(encoding="utf-8"))
    logs = json.loads((folder / "game_logs.json").read_text(encoding="utf-8"))
    view: dict[str, set[str]] = {name: {f"role-{name}"} for name in state["players"]}
    for name, player in state["players"].items():
        view[name].update(observed(name, line) for line in player["observations"])
    for call in logged_calls(logs):
        prompt = call["prompt"]
        me = _ME.search(prompt)
        if me is None:
            raise ValueError(f"a prompt that names no player: {prompt[:120]!r}")
        name = me["name"]
        partner = _PARTNER.search(prompt)
        if partner is not None:
            view[name].add(f"wolf-{name}-{partner['name']}")
        for debate in _DEBATE.finditer(prompt):
            r = int(debate["round"])
            recorded = state["rounds"][r]["debate"]
            if debate["lines"].startswith("The debate has not begun."):
                continue
            for i, line in enumerate(debate["lines"].splitlines()):
                speaker, _, text = line.partition(": ")
                expected = recorded[i] if i < len(recorded) else ["", ""]
                if speaker.removesuffix(" (You)") != expected[0] or text.strip() != expected[1].strip():
                    raise ValueError(f"{name}'s prompt shows round {r} turn {i + 1} as {line!r}, the engine recorded "
                                     f"{expected!r}")
                view[name].add(f"r{r}-debate{i + 1}")
    return view


def mismatches(held: dict[str, set[str]], view: dict[str, set[str]]) -> dict[str, dict[str, list[str]]]:
    """Per player whose memories differ from what the engine showed them: ``{"not shown": [...]}``, memories of events
    the engine did not show them (a leak), and ``{"no memory": [...]}``, what it showed them that they hold no memory
    of. ``held``: {player: ids of the events their memories are of}; an empty dict when both agree for everyone."""
    found: dict[str, dict[str, list[str]]] = {}
    for player in sorted(set(held) | set(view)):
        leak = sorted(held.get(player, set()) - view.get(player, set()))
        lost = sorted(view.get(player, set()) - held.get(player, set()))
        if leak or lost:
            found[player] = {"not shown": leak, "no memory": lost}
    return found
