"""Seeded synthetic Traitors-like games in the canonical format "graphmem/1" (docs/log-format.md), for benchmarks.

Each day: breakfast (the night's murder), social talk, roundtable (every living player speaks and votes),
banishment, night (recruitment, traitors' talk, murder votes), until a side wins or ``days`` are played. Templates
with names give suspicions, defences, role claims, accusations, votes, alibis, small talk, rumours passed on by
several players and contradictions (two players telling a third opposite things about a fourth's role), with claims
(docs/perception.md#claims). Three random streams derive from ``seed``: the plot (votes, murders) does not depend on
the talk.

CLI: ``python -m bench.generate --memories 100000 --seed 1 -o /tmp/g.jsonl``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphmem.logs.schema import FORMAT
from graphmem.logs.writer import dumps_line

Obj = dict[str, Any]
FAITHFUL, TRAITOR = "faithful", "traitor"
PROFILES = ("analytical", "intuitive", "balanced", "emotional", "paranoid")
NAMES = ("Marcus", "Sarah", "Eleanor", "Thomas", "Priya", "Casey", "Fletcher", "Gwendolyn", "Morgan", "Parker",
         "Riley", "Taylor", "Aisha", "Bernard", "Chloe", "Dev", "Imogen", "Jonah", "Keira", "Liam", "Mei", "Niall",
         "Olive", "Rafael", "Saoirse", "Tobias", "Uma", "Viktor", "Wren", "Yusuf", "Zara", "Hugo", "Freya", "Omar",
         "Beatrix", "Callum", "Delphine", "Ezra", "Hattie", "Idris")

# Templates: slots {S} speaker, {X} target, {Z} another player, {V} the victim; claims (docs/perception.md#claims)
# follow " | " as "subject-slot predicate object" (object: a slot or a value; "!" before it negates: "X role !traitor").
_TEMPLATES: dict[str, tuple[str, ...]] = {
    "suspicion": (
        "{X} has been far too quiet since the murder.", "Did you notice how {X} changed the subject at breakfast?",
        "I don't trust {X}. Something about their story doesn't add up.", "I've got a bad feeling about {X}.",
        "{X} keeps deflecting every time someone asks a direct question.", "Why is {X} always the last to speak?",
        "Watch {X} at the round table, they switch their vote at the last second.",
        "{X} was very quick to point fingers this morning. Too quick."),
    "accuse": tuple(t + " | X role traitor" for t in (
        "{X} is a traitor, I'm sure of it.", "Honestly, {X} is a traitor.", "Mark my words. {X} is a traitor.",
        "I'm convinced {X} is a traitor.")),
    "exonerate": ("{X} is not a traitor, I'd stake my life on it. | X role !traitor",
                  "I know {X} is a faithful. | X role faithful", "Trust me, {X} is a faithful. | X role faithful"),
    "defend": ("I trust {X}, they've been straight with me from day one.", "Leave {X} alone, seriously.",
               "{X} voted the right way every single time, that has to count for something."),
    "self_claim": ("I am a faithful. I've got nothing to hide. | S role faithful",
                   "Believe me, I'm a faithful through and through. | S role faithful",
                   "I'm not a traitor, whatever {X} tells you. | S role !traitor"),
    "vote_claim": ("I voted for {X} at the last round table. | S voted_for X",
                   "For the record, I voted for {X}. | S voted_for X"),
    "alibi": ("I was in the library with {X} all evening.", "I was playing cards with {X} until midnight.",
              "After dinner I went straight to bed. {X} can vouch for me.", "{X} and I did the mission together."),
    "small_talk": (
        "The breakfast this morning was incredible.", "I can't believe how cold the castle gets at night.",
        "Did anyone else hear the wind howling last night?", "Today's mission was exhausting, my arms still ache.",
        "I miss my family more than I expected.", "This game is really messing with my head."),
    "murder": ("I can't believe {V} is gone. They were one of the good ones.", "Why {V}? Who did {V} threaten?",
               "Losing {V} last night was a shock. The traitors are getting bold."),
    "rumour": ("{X} was seen slipping out of the turret after midnight.", "{X} was whispering with {Z} by the fire.",
               "{X} had a letter with a black seal hidden in their room.",
               "{X} is a traitor. Someone saw them heading to the conclave. | X role traitor"),
    "traitors": ("We should take {V} out tonight, they're getting too close.", "{V} keeps asking the right questions.",
                 "If we murder {V}, suspicion falls on {X}.", "Let's keep {X} alive, they make a perfect scapegoat.",
                 "I'm worried about {V}. They've been watching me all day."),
}
_SOCIAL = {"suspicion": 6, "accuse": 2, "exonerate": 1, "defend": 2, "self_claim": 2, "vote_claim": 2, "alibi": 2,
           "small_talk": 3, "murder": 1, "rumour": 1}
_HEARSAY = ("I heard that ", "Word is that ", "Apparently ", "Keep this between us, but ", "People are saying ")


def _render(template: str, slots: dict[str, str]) -> tuple[str, list[str], list[Obj]]:
    """Text, ``about`` (players of the slots used, speaker excluded) and claims of a filled template."""
    text, *claims = template.split(" | ")
    about = list(dict.fromkeys(v for k, v in slots.items() if k != "S" and "{" + k + "}" in text))
    return text.format(**slots), about, [
        {"subject": slots[subject], "predicate": predicate, "object": slots.get(obj, obj.lstrip("!")),
         "polarity": not obj.startswith("!")} for subject, predicate, obj in (claim.split() for claim in claims)]


class _Game:
    """One game being played: ``plot`` decides, ``talk`` words, ``feel`` colours; ``events`` collects the objects."""

    def __init__(self, players: int, traitors: int, seed: int, share: float, recruit: bool, emotions: bool) -> None:
        self.plot, self.talk, self.feel = (random.Random(f"graphmem-bench:{seed}:{s}") for s in ("plot", "talk", "emo"))
        names = [NAMES[i % len(NAMES)] + (str(i // len(NAMES) + 1) if i >= len(NAMES) else "") for i in range(players)]
        chosen = set(self.plot.sample(names, traitors))
        self.roles = {p: TRAITOR if p in chosen else FAITHFUL for p in names}
        self.initial_roles = dict(self.roles)
        self.profiles = {p: self.plot.choice(PROFILES) for p in names}
        self.alive = list(names)
        self.share, self.recruit, self.emotions = share, recruit, emotions
        self.events: list[Obj] = []
        self.rumours: list[tuple[str, dict[str, str], set[str]]] = []  # (template, slots, who heard it)
        self.suspects: list[str] = []
        self.last_votes: dict[str, str] = {}
        self.victim: str | None = None  # chosen at night, revealed at the next breakfast
        self.murdered: str | None = None  # revealed this morning

    def traitors(self) -> list[str]:
        return [p for p in self.alive if self.roles[p] == TRAITOR]

    def faithfuls(self) -> list[str]:
        return [p for p in self.alive if self.roles[p] != TRAITOR]

    def feelings(self, who: Sequence[str], emotion: str, p: float) -> dict[str, dict[str, float]]:
        """``{player: {emotion: intensity}}`` for each of ``who`` with probability ``p`` (empty without emotions)."""
        return {w: {emotion: round(self.feel.uniform(0.3, 0.95), 2)} for w in who
                if self.emotions and self.feel.random() < p}

    def emit(self, event: Obj, emotion: dict[str, dict[str, float]] | None = None) -> None:
        self.events.append({**event, "emotion": emotion} if emotion else event)

    def phase(self, day: int, name: str) -> None:
        self.emit({"kind": "phase", "day": day, "name": name})

    def say(self, speaker: str, to: list[str] | str, channel: str, template: str, slots: dict[str, str],
            prefix: str = "") -> None:
        text, about, claims = _render(template, {"S": speaker, **slots})
        event: Obj = {"kind": "say", "speaker": speaker, "to": to, "channel": channel, "text": prefix + text}
        event.update({"about": about} if about else {}, **({"claims": claims} if claims else {}))
        listeners = to if isinstance(to, list) else about if channel == "roundtable" else []  # the accused
        self.emit(event, self.feelings(listeners, "trust" if channel == "private" else "anger", 0.3))

    def target(self, speaker: str, suspect: bool) -> str:
        """Whom a statement is about: often a day's suspect; a traitor speaks about faithfuls (talk stream)."""
        others = [p for p in self.alive if p != speaker]
        if self.roles[speaker] == TRAITOR:
            others = [p for p in others if self.roles[p] != TRAITOR] or others
        cands = [s for s in self.suspects if s in others] if suspect and self.talk.random() < 0.6 else []
        return self.talk.choice(cands or others)

    def statement(self, speaker: str, to: list[str] | str) -> None:
        """One social statement of a category drawn from ``_SOCIAL``; a "rumour" starts a new rumour."""
        category = self.talk.choices(list(_SOCIAL), list(_SOCIAL.values()))[0]
        x = self.target(speaker, category in ("suspicion", "accuse", "rumour"))
        if {"vote_claim": speaker not in self.last_votes, "murder": not self.murdered}.get(category):
            category = "suspicion"
        elif category == "vote_claim" and self.talk.random() < 0.9:  # otherwise a lie about one's vote
            x = self.last_votes[speaker]
        slots = {"X": x, "Z": self.talk.choice([p for p in self.alive if p not in (speaker, x)]),
                 "V": self.murdered or x}
        template = self.talk.choice(_TEMPLATES[category])
        self.say(speaker, to, "private" if isinstance(to, list) else "public", template, slots)
        if category == "rumour":
            self.rumours.append((template, slots, {speaker, *(to if isinstance(to, list) else self.alive)}))

    def pass_rumour(self, speaker: str) -> bool:
        """The speaker passes a recent rumour they heard to one or two who have not; False if none to pass."""
        known = [r for r in self.rumours[-8:] if speaker in r[2] and speaker not in _render(r[0], r[1])[1]]
        if not known:
            return False
        template, slots, heard = self.talk.choice(known)
        about = _render(template, slots)[1]
        fresh = [p for p in self.alive if p not in heard and p not in about]
        if not fresh:
            return False
        to = self.talk.sample(fresh, min(len(fresh), self.talk.choice((1, 1, 2))))
        self.say(speaker, to, "private", template, slots, prefix=self.talk.choice(_HEARSAY))
        heard.update([speaker, *to])
        return True

    def social(self, n: int) -> None:
        """``n`` statements: public, private (new, a rumour passed on, or a contradiction of two statements)."""
        i = 0
        while i < n:
            speaker = self.talk.choice(self.alive)
            if self.talk.random() >= self.share:
                self.statement(speaker, "all")
            elif n - i >= 2 and len(self.alive) >= 4 and self.talk.random() < 0.05:
                a, b, c, d = self.talk.sample(self.alive, 4)  # a and b tell c opposite things about d's role
                self.say(a, [c], "private", self.talk.choice(_TEMPLATES["accuse"]), {"X": d})
                self.say(b, [c], "private", self.talk.choice(_TEMPLATES["exonerate"]), {"X": d})
                i += 1
            elif not (self.talk.random() < 0.3 and self.pass_rumour(speaker)):
                others = [p for p in self.alive if p != speaker]
                self.statement(speaker, self.talk.sample(others, 1 + (self.talk.random() < 0.3)))
            i += 1

    def finish(self, day: int, last: bool = False) -> bool:
        """End the game (final phase, ``end``) if a side has won; on the ``last`` day any traitor left wins."""
        t = len(self.traitors())
        winner = "faithfuls" if t == 0 else "traitors" if last or t >= len(self.alive) - t else None
        if winner:
            self.phase(day, "final")
            self.emit({"kind": "end", "winner": winner, "text": f"The {winner} won the game."})
        return winner is not None

    def breakfast(self, day: int) -> bool:
        """The night's murder revealed; False if it ended the game."""
        self.phase(day, "breakfast")
        self.murdered, self.victim = self.victim, None
        if self.murdered:
            self.emit({"kind": "murder", "victim": self.murdered, "by": self.traitors()},
                      self.feelings([p for p in self.faithfuls() if p != self.murdered], "fear", 0.5))
            self.alive.remove(self.murdered)
            if self.finish(day):
                return False
        return True

    def roundtable(self, day: int) -> str:
        """Votes (plot), speeches (talk), the banishment; returns the banished player's role."""
        self.suspects = self.plot.sample(self.alive, min(3, len(self.alive)))
        if not set(self.suspects) & set(self.traitors()) and self.plot.random() < 0.6:
            self.suspects[-1] = self.plot.choice(self.traitors())
        votes: dict[str, str] = {}
        for voter in self.plot.sample(self.alive, len(self.alive)):
            cands = [s for s in self.suspects if s != voter]
            if self.roles[voter] == TRAITOR:
                cands = [c for c in cands if self.roles[c] != TRAITOR] or [p for p in self.faithfuls() if p != voter]
            elif not cands or self.plot.random() < 0.3:
                cands = [p for p in self.alive if p != voter]
            votes[voter] = self.plot.choices(cands, [3 if self.roles[c] == TRAITOR else 1 for c in cands])[0]
        counts = Counter(votes.values())
        out = self.plot.choice([p for p in self.alive if counts[p] == max(counts.values())])
        for voter, target in votes.items():
            reason, *claims = self.talk.choice(_TEMPLATES[self.talk.choice(("suspicion", "accuse"))]).split(" | ")
            speech = " | ".join([reason + " I'm voting for {X}.", *claims, "S voted_for X"])
            self.say(voter, "all", "roundtable", speech, {"X": target})
            self.emit({"kind": "vote", "voter": voter, "target": target, "ballot": "banish",
                       "claims": [{"subject": voter, "predicate": "voted_for", "object": target, "polarity": True}]})
        self.phase(day, "banishment")
        if self.talk.random() < 0.5:  # last words: "I am a faithful", true or not
            self.say(out, "all", "public", _TEMPLATES["self_claim"][0], {})
        self.emit({"kind": "banish", "player": out, "votes": counts[out], "role_revealed": self.roles[out]},
                  self.feelings([out], "fear", 0.9))
        self.alive.remove(out)
        self.last_votes = votes
        return self.roles[out]

    def night(self, day: int, banished_role: str) -> None:
        """Recruitment (plot), the traitors' talk and their murder votes; the victim dies at the next breakfast."""
        self.phase(day, "night")
        against_traitors = [v for v, t in self.last_votes.items() if self.roles[t] == TRAITOR and v in self.alive]
        if self.recruit and banished_role == TRAITOR and len(self.traitors()) + 1 < len(self.faithfuls()) - 1 \
                and self.plot.random() < 0.5:
            new, by = self.plot.choice(self.faithfuls()), self.plot.choice(self.traitors())
            self.emit({"kind": "recruit", "player": new, "by": by}, self.feelings([new], "fear", 0.9))
            self.roles[new] = TRAITOR
        plan = self.plot.choice([v for v in against_traitors if self.roles[v] != TRAITOR] or self.faithfuls())
        ballots = {t: plan if self.plot.random() < 0.85 else self.plot.choice(self.faithfuls())
                   for t in self.traitors()}
        tally = Counter(ballots.values())
        top = sorted(p for p in tally if tally[p] == max(tally.values()))
        self.victim = plan if plan in top else self.plot.choice(top)
        for t in self.traitors():
            for _ in range(self.talk.randint(1, 2)):
                self.say(t, "all", "traitors", self.talk.choice(_TEMPLATES["traitors"]),
                         {"V": self.victim, "X": self.target(t, True)})
        for t, target in ballots.items():
            self.emit({"kind": "vote", "voter": t, "target": target, "ballot": "murder",
                       "text": f"{target} is getting too close."})

    def play(self, days: int, statements: int) -> None:
        for t in self.traitors():  # the traitors learn who the others are (explicit witnesses)
            self.emit({"kind": "reveal", "player": t, "role": TRAITOR, "witnesses": self.traitors()})
        for day in range(1, days + 1):
            if not self.breakfast(day):
                return
            self.phase(day, "social")
            self.social(statements)
            self.phase(day, "roundtable")
            role = self.roundtable(day)
            if self.finish(day, last=day == days):
                return
            self.night(day, role)


def generate_game(*, players: int = 9, traitors: int = 2, days: int = 5, statements_per_phase: int = 20,
                  private_share: float = 0.6, seed: int = 0, game_id: str | None = None, recruit: bool = True,
                  emotions: bool = False) -> list[Obj]:
    """A synthetic game as canonical objects, header first (valid for ``graphmem.logs.reader.parse_game_log``).

    players : int >= 3; traitors : int >= 1, fewer than the faithfuls; days : int >= 1, the most days played
    statements_per_phase : int >= 0, say events per social phase; private_share : float in [0, 1]
    seed : int, the only randomness; game_id : str or None (default ``synth-<players>p-s<seed>``); recruit : bool,
    recruit after a traitor's banishment; emotions : bool, some events carry ``emotion`` for some witnesses.
    Raises ValueError for arguments out of range.
    """
    if not (1 <= traitors < players / 2 and days >= 1 and statements_per_phase >= 0 and 0 <= private_share <= 1):
        raise ValueError("need 1 <= traitors < players / 2, days >= 1, statements >= 0, 0 <= private_share <= 1")
    game = _Game(players, traitors, seed, private_share, recruit, emotions)
    game.play(days, statements_per_phase)
    params = {"players": players, "traitors": traitors, "days": days, "statements_per_phase": statements_per_phase,
              "private_share": private_share, "seed": seed, "recruit": recruit, "emotions": emotions}
    return [{"kind": "game", "format": FORMAT, "game": game_id or f"synth-{players}p-s{seed}",
             "title": f"Synthetic Traitors game ({players} players, {traitors} traitors, seed {seed})",
             "players": [{"name": p, "role": r, "profile": game.profiles[p]} for p, r in game.initial_roles.items()],
             "source": "bench/generate.py", "metadata": {"generator": "bench.generate", "params": params}},
            *game.events]


def count_memories(game: Sequence[Obj]) -> int:
    """Witness-memories of a canonical game: per event, its ``witnesses`` or docs/log-format.md's default just before
    it: private say: speaker + ``to``; traitors' say, murder vote: living traitors; other say and vote, banish, end: the
    living; murder: the living but the victim (as graphmem.ingest.perception); recruit: player + living traitors;
    observe: the observers; reveal: the player; phase, thought, emotion: nobody."""
    roles = {p["name"]: p["role"] for p in game[0]["players"]}
    alive, total = set(roles), 0
    for e in game[1:]:
        kind, living_traitors = e["kind"], {p for p in alive if roles[p] == TRAITOR}
        if "witnesses" in e:
            witnesses = set(e["witnesses"])
        elif kind == "say" and e["channel"] == "private":
            witnesses = {e["speaker"], *e["to"]}
        elif e.get("channel") == "traitors" or e.get("ballot") == "murder":
            witnesses = living_traitors
        elif kind in ("say", "vote", "banish", "end", "murder"):
            witnesses = alive - {e.get("victim")}
        else:
            witnesses = {"recruit": living_traitors | {e.get("player")}, "reveal": {e.get("player")},
                         "observe": set(e.get("observers", ()))}.get(kind, set())
        total += len(witnesses)
        if kind in ("murder", "banish"):
            alive.discard(e["victim"] if kind == "murder" else e["player"])
        elif kind == "recruit":
            roles[e["player"]] = TRAITOR
    return total


def estimate_memories(**kwargs: Any) -> int:
    """The exact number of witness-memories of ``generate_game(**kwargs)`` (see :func:`count_memories`)."""
    return count_memories(generate_game(**kwargs))


def game_for_memories(target: int, seed: int = 0, players: int | None = None, **kwargs: Any) -> list[Obj]:
    """A game of about ``target`` witness-memories (within ~2% once the target exceeds the smallest game).

    players : int or None (default: 9 up to 3,000 memories, 12 up to 30,000, else 22); kwargs : other arguments of
    :func:`generate_game` but ``days`` and ``statements_per_phase``, chosen here: the most days whose game without
    social talk stays under half the target, then the statements by secant steps on the (near-linear) count.
    """
    players = players or (9 if target <= 3_000 else 12 if target <= 30_000 else 22)
    kwargs.setdefault("traitors", max(1, round(players / 5)))

    def make(d: int, s: int) -> tuple[list[Obj], int]:
        game = generate_game(players=players, days=d, statements_per_phase=s, seed=seed, **kwargs)
        return game, count_memories(game)

    days, (best, base) = 1, make(1, 0)
    for d in range(2, players + 1):  # the plot does not depend on the statements: base(days) is exact
        game, m = make(d, 0)
        if m > target / 2 or m == base:
            break
        days, best, base = d, game, m
    s0, m0, best_m = 0, base, base
    s1 = max(1, round((target - base) / (days * max(2.0, 0.35 * players))))
    for _ in range(8):
        game, m1 = make(days, s1)
        if abs(m1 - target) < abs(best_m - target):
            best, best_m = game, m1
        if abs(m1 - target) <= 0.02 * target or m1 == m0:
            break
        s0, m0, s1 = s1, m1, max(0, round(s1 + (target - m1) * (s1 - s0) / (m1 - m0)))
    return best


def write_game(path: str | os.PathLike[str], **kwargs: Any) -> list[Obj]:
    """Write ``generate_game(**kwargs)`` to ``path`` as canonical JSONL (UTF-8); returns the objects."""
    game = generate_game(**kwargs)
    Path(path).write_text("".join(dumps_line(obj) + "\n" for obj in game), encoding="utf-8", newline="\n")
    return game


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bench.generate``: write a synthetic game, print its id, event count and memory count."""
    ap = argparse.ArgumentParser(prog="python -m bench.generate", description=(__doc__ or "").splitlines()[0])
    for flag, kind, default in (("--memories", int, None), ("--players", int, None), ("--traitors", int, None),
                                ("--days", int, 5), ("--statements", int, 20), ("--private-share", float, 0.6),
                                ("--seed", int, 0), ("--game-id", str, None)):
            ap.add_argument(flag, type=kind, default=default)
    ap.add_argument("--no-recruit", action="store_true")
    ap.add_argument("--emotions", action="store_true")
    ap.add_argument("-o", "--output", required=True, help="the JSONL file to write")
    a = ap.parse_args(argv)
    opts: Obj = {"private_share": a.private_share, "game_id": a.game_id, "recruit": not a.no_recruit,
                 "emotions": a.emotions, **({"traitors": a.traitors} if a.traitors is not None else {})}
    started = time.perf_counter()
    try:
        game = game_for_memories(a.memories, seed=a.seed, players=a.players, **opts) if a.memories else \
            generate_game(players=a.players or 9, days=a.days, statements_per_phase=a.statements, seed=a.seed, **opts)
    except ValueError as e:
        ap.error(str(e))
    Path(a.output).write_text("".join(dumps_line(obj) + "\n" for obj in game), encoding="utf-8", newline="\n")
    p, days = game[0]["metadata"]["params"], game[-1 if game[-1]["kind"] == "phase" else -2]["day"]
    print(f"game {game[0]['game']}: {len(game) - 1} events, {count_memories(game)} estimated memories "
          f"({p['players']} players, {days} days played, {p['statements_per_phase']} statements per social phase, "
          f"{time.perf_counter() - started:.2f} s) -> {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
