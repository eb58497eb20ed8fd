"""Seeded long conversations between two people, in the canonical format "graphmem/1", for benchmarks.

A long conversation is the other way an owner comes to hold thousands of memories (besides a long series of
rounds): two people talk over many sessions, each session a phase, each turn a private statement from one to the
other, so each of the two remembers every turn (having said it, or having been told). The talk is chit-chat about
their lives, from templates with people, places, activities and times, so that texts differ as real turns do and
a topic finds some turns and not others. Every turn is stored with ``"claims": []`` (no claims derived).

CLI: ``python -m bench.conversation --statements 600 --phases 30 -o /tmp/talk.jsonl``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphmem.logs.schema import FORMAT
from graphmem.logs.writer import dumps_line

Obj = dict[str, Any]
SPEAKERS = ("Avery", "Jordan")

_PEOPLE = ("Maya", "Leo", "Nina", "Omar", "Priya", "Sam", "Tess", "Umar", "Vera", "Wes", "Yara", "Zoe", "Ben",
           "Cleo", "Dario", "Elif", "Finn", "Gita", "Hana", "Ivan", "June", "Kofi", "Lena", "Milo", "Noor", "Oscar",
           "Pia", "Quinn", "Rosa", "Theo")
_RELATIONS = ("sister", "brother", "mum", "dad", "cousin", "coworker", "neighbour", "best friend", "boss",
              "daughter", "son", "aunt", "flatmate", "old teacher")
_PLACES = ("the farmers' market", "Lisbon", "the climbing gym", "my grandmother's house", "the lake cabin", "Kyoto",
           "the night shelter", "the pottery studio", "the football ground", "the hospital", "Marseille", "the bakery",
           "the library", "the botanical garden", "Edinburgh", "the jazz bar", "the dog park", "the community hall",
           "Oaxaca", "the bookshop on Mill Street", "the coast path", "the art school", "the train station",
           "Reykjavik", "the vineyard", "the allotment", "the museum of science", "the old cinema", "Nairobi",
           "the ice rink")
_ACTIVITIES = ("went hiking", "took a pottery class", "ran a half marathon", "volunteered", "painted a mural",
               "learned to sail", "adopted a puppy", "started a book club", "baked sourdough", "went birdwatching",
               "played in a chess tournament", "sang in a choir concert", "planted tomatoes", "went camping",
               "took salsa lessons", "fixed an old motorbike", "gave a talk", "went to a wedding", "moved flats",
               "started a new job", "went to a job interview", "visited a museum", "tried rock climbing",
               "went on a road trip", "learned the violin", "knitted a scarf", "joined a rowing team",
               "cooked for twenty people", "wrote a short story", "went to a protest")
_TIMES = ("yesterday", "last weekend", "on Tuesday", "this morning", "two weeks ago", "last month", "on my birthday",
          "over the holidays", "last summer", "a few days ago")
_FEELINGS = ("nervous", "thrilled", "exhausted", "proud", "a bit lonely", "relieved", "anxious", "grateful",
             "restless", "calm", "overwhelmed", "hopeful")
_THINGS = ("the novel about the lighthouse keeper", "my grandfather's watch", "a second-hand camera",
           "the documentary about octopuses", "a bright yellow kayak", "the recipe book you lent me",
           "a vintage record player", "the jigsaw of the night sky", "my old school yearbook", "a tiny cactus",
           "the board game with the dragons", "a blue wool coat", "the podcast about space", "a sketchbook",
           "the new running shoes")

_TEMPLATES = (
    "I {activity} at {place} {time}, and honestly it made me feel {feeling}.",
    "My {relation} {person} {activity} {time}. I still can't believe it.",
    "{time_cap} I {activity} with {person}. We ended up at {place} afterwards.",
    "Do you remember {person}? They just {activity} at {place}.",
    "I've been feeling {feeling} since my {relation} {person} moved away.",
    "I finally bought {thing}. {person} said it was a waste of money.",
    "Have you ever been to {place}? I went {time} and loved it.",
    "{person} gave me {thing} {time}, which was really sweet.",
    "I'm thinking about going back to {place} with my {relation}.",
    "Work has been hard; I feel {feeling} most evenings.",
    "Guess what, {person} and I {activity} together {time}!",
    "I lost {thing} somewhere near {place}. So annoying.",
    "My {relation} keeps telling me to {activity_bare} more often.",
    "How was your week? Mine was mostly {place} and {thing}.",
    "I read that {place} is lovely in spring. Maybe we should go.",
    "Since {time} I've been trying to {activity_bare} every week.",
    "That reminds me of when my {relation} {person} {activity}.",
    "I'm so {feeling}: {person} asked me to help at {place}.",
    "You told me about {thing}, did you ever find it?",
    "I keep thinking about what {person} said at {place}.",
)


def _bare(activity: str) -> str:
    """'went hiking' -> 'go hiking', 'took a pottery class' -> 'take a pottery class' (for "to ...")."""
    verbs = {"went": "go", "took": "take", "ran": "run", "painted": "paint", "learned": "learn", "adopted": "adopt",
             "started": "start", "baked": "bake", "played": "play", "sang": "sing", "planted": "plant",
             "fixed": "fix", "gave": "give", "moved": "move", "visited": "visit", "tried": "try",
             "knitted": "knit", "joined": "join", "cooked": "cook", "wrote": "write", "volunteered": "volunteer"}
    first, _, rest = activity.partition(" ")
    return f"{verbs.get(first, first)} {rest}".strip()


def statement(rng: random.Random) -> str:
    """One turn of chit-chat."""
    activity = rng.choice(_ACTIVITIES)
    time = rng.choice(_TIMES)
    return rng.choice(_TEMPLATES).format(
        activity=activity, activity_bare=_bare(activity), place=rng.choice(_PLACES), time=time,
        time_cap=time[0].upper() + time[1:], feeling=rng.choice(_FEELINGS), relation=rng.choice(_RELATIONS),
        person=rng.choice(_PEOPLE), thing=rng.choice(_THINGS))


def conversation(statements: int, phases: int, *, seed: int = 0, game: str | None = None,
                 profile: str | None = None) -> list[Obj]:
    """A two-person conversation of ``statements`` turns spread evenly over ``phases`` sessions (one phase each).

    statements : int >= 1; phases : int in 1..statements; seed : the random stream; game : the game id (default
    ``talk-{statements}x{phases}-s{seed}``); profile : both speakers' memory profile (None: the default profile).
    Returns the canonical objects: the header, then per session a ``phase`` event and its ``say`` events, turns
    alternating between the two speakers (private, to the other one).
    """
    if statements < 1 or not 1 <= phases <= statements:
        raise ValueError(f"need 1 <= phases <= statements, got {phases} phases for {statements} statements")
    rng = random.Random(seed)
    players: list[Obj] = [{"name": n, "role": "faithful", **({"profile": profile} if profile else {})}
                          for n in SPEAKERS]
    objects: list[Obj] = [{"kind": "game", "format": FORMAT, "game": game or f"talk-{statements}x{phases}-s{seed}",
                           "title": f"A conversation of {statements} turns over {phases} sessions",
                           "players": players}]
    for session in range(phases):
        objects.append({"kind": "phase", "day": session + 1, "name": "social"})
        first, last = session * statements // phases, (session + 1) * statements // phases
        for turn in range(first, last):
            speaker, listener = SPEAKERS[turn % 2], SPEAKERS[1 - turn % 2]
            objects.append({"kind": "say", "speaker": speaker, "to": [listener], "channel": "private",
                            "text": statement(rng), "claims": []})
    return objects


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.conversation", description=__doc__.splitlines()[0])
    parser.add_argument("--statements", type=int, default=600)
    parser.add_argument("--phases", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    objects = conversation(args.statements, args.phases, seed=args.seed)
    args.out.write_text("".join(dumps_line(o) + "\n" for o in objects), encoding="utf-8")
    print(f"{args.out}: {args.statements} statements over {args.phases} phases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
