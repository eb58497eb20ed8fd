"""A seeded scripted player for google/werewolf_arena: the engine's model call answered by rules, not by an LLM.

The engine (a checkout given by path, never copied here) asks its model through ``werewolf.apis.generate(model,
prompt=..., response_schema=..., ...)`` and parses the JSON text it returns. :func:`load_engine` puts a module of
ours in the place of ``werewolf.apis`` (whose imports, the OpenAI, Anthropic and Vertex AI clients, are never
loaded) and imports the engine's ``model``, ``game`` and ``logging`` modules; :class:`ScriptedModel` answers every
call from the prompt alone, as an LLM would: who the player is, their role, the round, the options, what the
prompt's "YOUR PRIVATE OBSERVATIONS" section says they know, and the debate so far.

Its choices are seeded (``random.Random`` of the seed, the player, the action and a call counter), so one seed
gives one game and different seeds give different games. The rules are simple and mimic what people report LLM
players doing, mistakes included, so that the claims a player would check have something to find:

- the Seer names the werewolves it has found ("I am the Seer. I investigated Derek and Derek is a werewolf."),
  vouches for the villagers it has checked, and now and then states the opposite of what it checked;
- the Doctor claims a save after a night with no removal ("I protected Mason last night.");
- a werewolf sometimes claims to be the Seer and names a villager, or claims a save it never made;
- anyone sometimes says they are voting for a player already removed;
- everyone else voices suspicion and trust ("I suspect Isaac.", "I trust Hayley."), and votes for whoever the
  debate accuses most (a werewolf for a villager).

The scripted player works on the engine's own prompts and on prompts whose observation section was replaced by a
graphmem recall block (``werewolf_live.py``): what it knows it reads with patterns that match both.
"""

from __future__ import annotations

import json
import random
import re
import sys
import types
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROLE_WORDS = ("Werewolf", "Villager", "Seer", "Doctor")
_NAME = r"[A-Z][A-Za-z]+"

# What a player knows, read from the observations section (the engine's wording, or a graphmem recall block's).
_CHECKED = re.compile(rf"investigate ({_NAME}) and learned they are an? ({'|'.join(ROLE_WORDS)})"
                      rf"|\] ({_NAME}) is an? ({'|'.join(w.lower() for w in ROLE_WORDS)})\.$", re.M)
"""The Seer's findings: the engine's observation, or a recall block's line that is a reveal ("3. [CLEAR] [Day 0]
Mason is a werewolf."), not a statement that holds such words."""
_PROTECTED = re.compile(rf"(?:chose to protect|voted to protect) ({_NAME})")
_REMOVED = re.compile(rf"(?:The Werewolves removed|majority voted to remove) ({_NAME})"
                      rf"|({_NAME}) was (?:murdered|banished)")
_OTHER_WOLF = re.compile(rf"The other Werewolf(?: is|,) ({_NAME})")


@dataclass
class Prompt:
    """What the scripted player reads in one prompt."""

    name: str
    role: str
    round: int
    options: list[str]
    remaining: list[str]
    knowledge: str
    debate: list[tuple[str, str]]
    other_wolf: str | None = None
    checked: dict[str, str] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    protected: list[str] = field(default_factory=list)


def _section(prompt: str, start: str, ends: tuple[str, ...]) -> str:
    i = prompt.find(start)
    if i < 0:
        return ""
    rest = prompt[i + len(start):]
    stop = min([j for j in (rest.find(e) for e in ends) if j >= 0], default=len(rest))
    return rest[:stop]


def read_prompt(prompt: str) -> Prompt:
    """The player, role, round, options, remaining players, knowledge and debate of an engine prompt."""
    me = re.search(rf"You are ({_NAME}) the ({'|'.join(ROLE_WORDS)})\.", prompt)
    if me is None:
        raise ValueError(f"not a Werewolf Arena prompt: {prompt[:200]!r}")
    rnd = re.search(r"It is currently Round (\d+)\.", prompt)
    options = re.search(r"Choose from: ([^\n\"]*)", prompt)
    remaining = re.search(r"Remaining players: ([^\n]*)", prompt)
    knowledge = _section(prompt, "YOUR PRIVATE OBSERVATIONS:", ("\nROUND ", "\nINSTRUCTIONS:"))
    debate_text = _section(prompt, " DEBATE:\n", ("\n\n", "\nCONTEXT:", "\nINSTRUCTIONS:"))
    debate = []
    for line in debate_text.splitlines():
        m = re.match(rf"({_NAME})(?: \(You\))?: (.*)", line.strip())
        if m:
            debate.append((m[1], m[2]))
    read = Prompt(
        name=me[1], role=me[2], round=int(rnd[1]) if rnd else 0,
        options=[o.strip() for o in options[1].split(",") if o.strip()] if options else [],
        remaining=[p.replace(" (You)", "").strip() for p in remaining[1].split(",")] if remaining else [],
        knowledge=knowledge, debate=debate)
    wolf = _OTHER_WOLF.search(prompt)
    read.other_wolf = wolf[1] if wolf else None
    for m in _CHECKED.finditer(knowledge):
        player, role = (m[1], m[2]) if m[1] else (m[3], m[4])
        if player != read.name:
            read.checked[player] = role.capitalize()
    read.removed = list(dict.fromkeys(a or b for a, b in _REMOVED.findall(knowledge)))
    read.protected = _PROTECTED.findall(knowledge)
    return read


def quiet_night(p: Prompt) -> bool:
    """Whether the player knows that nobody was removed in the night of the current round (the engine groups its
    observations under "Round N:"; a recall block labels each memory "[Day N]")."""
    night = re.search(rf"Round {p.round}:(.*?)(?:Round \d+:|$)", p.knowledge, re.S)
    if night and "No one was removed" in night[1]:
        return True
    return any(f"[Day {p.round}]" in line and "No one was removed" in line for line in p.knowledge.splitlines())


class ScriptedModel:
    """The model call of the engine, answered by seeded rules (module docstring). ``generate`` has the signature of
    ``werewolf.apis.generate``; ``calls`` counts the calls, ``prompts`` keeps each (player, action, prompt) when
    ``keep_prompts`` is set (the live example checks them)."""

    def __init__(self, seed: int, keep_prompts: bool = False) -> None:
        self.seed = seed
        self.calls = 0
        self.keep_prompts = keep_prompts
        self.prompts: list[tuple[str, str, str]] = []

    def rng(self, *key: object) -> random.Random:
        return random.Random("|".join(map(str, (self.seed, self.calls, *key))))

    def generate(self, model: str, prompt: str, response_schema: dict[str, Any] | None = None,
                 **_: Any) -> str:
        self.calls += 1
        action = next(iter(k for k in (response_schema or {}).get("required", []) if k != "reasoning"), "")
        p = read_prompt(prompt)
        if self.keep_prompts:
            self.prompts.append((p.name, action, prompt))
        rng = self.rng(p.name, action)
        answer: dict[str, str]
        if action == "bid":
            answer = {"bid": str(self.bid(p, rng))}
        elif action == "say":
            answer = {"say": self.say(p, rng)}
        elif action == "summary":
            answer = {"summary": self.summary(p)}
        elif action in ("vote", "remove", "investigate", "protect"):
            answer = {action: self.choose(action, p, rng)}
        else:
            raise ValueError(f"unknown action of schema {response_schema!r}")
        return json.dumps({"reasoning": f"Scripted {p.role} {p.name}, round {p.round}.", **answer})

    # -- the rules --------------------------------------------------------------------------------------------------

    def living_wolves_known(self, p: Prompt) -> list[str]:
        return [x for x, r in p.checked.items() if r == "Werewolf" and x in p.remaining]

    def accused(self, p: Prompt) -> Counter[str]:
        """How often the debate so far accused each remaining player (suspicion, a werewolf claim, a vote call)."""
        counts: Counter[str] = Counter()
        for speaker, text in p.debate:
            for m in re.finditer(rf"(?:suspect|voting for|vote out|worried about) ({_NAME})"
                                 rf"|({_NAME}) is (?:a werewolf|acting suspicious)", text):
                who = m[1] or m[2]
                if who in p.remaining and who != speaker:
                    counts[who] += 1
        return counts

    def bid(self, p: Prompt, rng: random.Random) -> int:
        if p.debate and p.name in p.debate[-1][1]:
            return 4
        if p.role == "Seer" and self.living_wolves_known(p) and not any(s == p.name for s, _ in p.debate):
            return 3
        return rng.choice([0, 0, 1, 1, 2, 2, 3])

    def say(self, p: Prompt, rng: random.Random) -> str:
        others = [x for x in p.remaining if x != p.name and x != p.other_wolf]
        if not others:
            return "I have nothing to add."
        gone = [x for x in p.removed if x not in p.remaining]
        if gone and rng.random() < 0.06:
            return f"I'm voting for {rng.choice(gone)}. My mind is made up."
        if p.role == "Seer" and p.checked and rng.random() < 0.75:
            player = rng.choice(sorted(p.checked))
            role = p.checked[player]
            if rng.random() < 0.12:  # the Seer states the opposite of what it checked
                role = "Villager" if role == "Werewolf" else "Werewolf"
            line = f"I am the Seer. I investigated {player} and {player} is a {role.lower()}."
            return line + (f" We must vote {player} out." if role == "Werewolf" else f" I trust {player}.")
        if p.role == "Doctor" and p.protected and p.round > 0 and rng.random() < 0.5:
            if quiet_night(p):
                return f"I am the Doctor. I protected {p.protected[-1]} last night, which is why nobody died."
        if p.role == "Werewolf":
            target = rng.choice(others)
            roll = rng.random()
            if roll < 0.12:
                return f"I am the Seer. I investigated {target} last night and {target} is a werewolf."
            if roll < 0.2:
                return f"I protected {target} last night, so you can trust me."
            if roll < 0.35 and p.other_wolf in p.remaining:
                return f"I trust {p.other_wolf}. Let us look elsewhere."
            return f"I suspect {target}. {target} has been too quiet."
        accused = self.accused(p)
        if accused and rng.random() < 0.6:
            who = accused.most_common(1)[0][0]
            if who != p.name:
                return f"I agree with the others, {who} is acting suspicious. I'm voting for {who}."
        target = rng.choice(others)
        return rng.choice([f"I suspect {target}.", f"I'm worried about {target}.", f"I trust {target}.",
                           f"{target} has been acting suspicious today."])

    def choose(self, action: str, p: Prompt, rng: random.Random) -> str:
        options = p.options
        if not options:
            return ""
        if action == "vote":
            known = [x for x in self.living_wolves_known(p) if x in options]
            if p.role == "Seer" and known:
                return known[0]
            accused = [x for x, _ in self.accused(p).most_common() if x in options and x != p.other_wolf]
            if p.role == "Werewolf":
                accused = [x for x in accused if x != p.other_wolf] or [x for x in options if x != p.other_wolf]
            return accused[0] if accused and rng.random() < 0.8 else rng.choice(options)
        if action == "remove":
            claimed = [s for s, t in p.debate if ("I am the Seer" in t or "I am the Doctor" in t) and s in options]
            return claimed[0] if claimed and rng.random() < 0.7 else rng.choice(options)
        if action == "protect":
            return p.name if p.name in options and rng.random() < 0.3 else rng.choice(options)
        return rng.choice(options)  # investigate

    def summary(self, p: Prompt) -> str:
        parts = []
        for speaker, text in p.debate[:4]:
            if speaker != p.name:
                parts.append(f"{speaker} said: {text.split('.')[0]}.")
        accused = self.accused(p).most_common(1)
        if accused:
            parts.append(f"I noticed {accused[0][0]} drew the most suspicion.")
        return " ".join(parts) or "It was a quiet round."


def load_engine(engine: Path, model: ScriptedModel) -> types.SimpleNamespace:
    """Import the engine from its checkout ``engine`` with ``model.generate`` as its model call.

    Returns a namespace with the engine's ``config``, ``model``, ``game`` and ``logging`` modules. ``werewolf.apis``
    is our module (``generate`` only): the engine's own, and the OpenAI, Anthropic and Vertex AI clients it
    imports, are never loaded. Raises ImportError when ``engine`` holds no ``werewolf`` package.
    """
    if not (engine / "werewolf" / "game.py").is_file():
        raise ImportError(f"{engine}: no werewolf/game.py (a checkout of google/werewolf_arena)")
    if str(engine) not in sys.path:
        sys.path.insert(0, str(engine))
    apis = types.ModuleType("werewolf.apis")
    apis.generate = model.generate  # type: ignore[attr-defined]
    sys.modules["werewolf.apis"] = apis
    import importlib

    names = ("config", "model", "game", "logging")
    return types.SimpleNamespace(**{n: importlib.import_module(f"werewolf.{n}") for n in names})
