"""A series of scripted Avalon games with graphmem as the players' memory across games (no LLM needed).

    graphmem neo4j start                                  # or NEO4J_URI=bolt://... of any Neo4j 5.26+
    python examples/series/play_series.py [--games 4] [--series NAME] [--out DIR]

It stands in for the multi-round Avalon engine (SuveenE/multi-round-avalon-agents, ``multi_game_runner.py``), whose
``PlayerMemory.get_context_string()`` shows each player, before each game, their last self-assessments and their
last observations of every other player, word for word and never fading. Here:

1. five scripted players (seeded choices: stances, a team, quest cards) play ``--games`` short games; each game is
   a canonical log with ``"series": {"name", "position"}`` in its header and, at its end, every role revealed to
   everyone; the logs are ingested in order (``MemoryService.ingest``), so each game joins the series and the
   earlier games fade across the gap between games;
2. the next game is opened live (``MemoryService.start_game`` with the same series), and the cross-game
   consolidation job summarises, for each player, what they remember of each other player
   (``MemoryService.consolidate_series``: "Chen was on the evil side in 3 of your 4 games together.");
3. before the new game, each player's context is a graphmem recall over the series (``MemoryService.recall`` with
   the other players as participants): memories of earlier games come labelled "[Game 3, Day 1]", fading by the
   player's profile. ``MEMORY`` plays the engine's ``memory_enabled_players`` ablation: Alice and Bob remember
   everything (the ``perfect`` profile, the engine's word-for-word memory), Chen and Dana are fallible (``balanced``,
   ``emotional``), and Emil plays without series memory (no recall, as the engine gives him no context);
4. the reputation query (``series_reputation``) and the who-trusts-whom picture (``graphmem viz trust``) close it.

Exit code 0 when every step answered as expected.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

PEOPLE = ("Alice", "Bob", "Chen", "Dana", "Emil")
PROFILES = {"Alice": "perfect", "Bob": "perfect", "Chen": "balanced", "Dana": "emotional", "Emil": "balanced"}
MEMORY = {"Alice": "perfect", "Bob": "perfect", "Chen": "fallible", "Dana": "fallible", "Emil": "off"}
"""How each person remembers across games: ``perfect`` (the control), ``fallible`` (a profile that forgets) or
``off`` (no series memory: the engine's players left out of ``memory_enabled_players``)."""
EVIL_PAIRS = (("Chen", "Dana"), ("Chen", "Emil"), ("Dana", "Emil"), ("Chen", "Dana"), ("Bob", "Chen"),
              ("Alice", "Emil"))
"""The two evil players (assassin, minion) of each game, in turn: Chen is evil most often."""
SIDES = {"traitor": "evil", "faithful": "good"}


def roles_of(position: int) -> dict[str, str]:
    """The roles of game ``position`` (1-based): the evil pair of :data:`EVIL_PAIRS`, Merlin the first good player
    after them in turn, loyal servants the rest."""
    assassin, minion = EVIL_PAIRS[(position - 1) % len(EVIL_PAIRS)]
    good = [p for p in PEOPLE if p not in (assassin, minion)]
    merlin = good[(position - 1) % len(good)]
    return {p: "assassin" if p == assassin else "minion" if p == minion else "Merlin" if p == merlin
            else "loyal servant" for p in PEOPLE}


def header(series: str, game: str, position: int, roles: dict[str, str] | None) -> dict[str, Any]:
    """The canonical header of a game of the series (roles None: a live game whose roles come later)."""
    players = [{"name": p, "profile": PROFILES[p], **({"role": roles[p]} if roles else {})} for p in PEOPLE]
    return {"kind": "game", "format": "graphmem/1", "game": game, "title": f"Scripted Avalon game {position}",
            "players": players, "traitor_roles": ["assassin", "minion"], "side_names": SIDES,
            "series": {"name": series, "position": position}}


def script(position: int, seed: int) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The roles and events of game ``position``: a scripted game of one quest. Merlin and the evil players learn
    who is evil; each player speaks once (good players voice a seeded suspicion or trust, evil players trust a good
    player, Merlin names an evil player); a team is proposed and voted on in the open; its members play secret cards
    (evil ones fail); at the end every role is revealed to everyone and the winner announced."""
    rng = random.Random(seed * 1000 + position)
    roles = roles_of(position)
    evil = [p for p in PEOPLE if roles[p] in ("assassin", "minion")]
    merlin = next(p for p in PEOPLE if roles[p] == "Merlin")
    events: list[dict[str, Any]] = [{"kind": "reveal", "player": p, "role": "evil", "witnesses": [merlin]}
                                    for p in evil]
    events += [{"kind": "reveal", "player": p, "role": "evil", "witnesses": [q]} for p in evil for q in evil if p != q]
    events.append({"kind": "phase", "day": 1, "name": "discussion"})
    for speaker in PEOPLE:
        others = [p for p in PEOPLE if p != speaker]
        if speaker == merlin:
            text = f"I think {rng.choice(evil)} is evil."
        elif speaker in evil:
            text = f"I trust {rng.choice([p for p in others if p not in evil])}."
        else:
            target = rng.choice(others)
            text = f"I suspect {target}." if rng.random() < 0.6 else f"I trust {target}."
        events.append({"kind": "say", "speaker": speaker, "to": "all", "channel": "public", "text": text})
    leader = PEOPLE[(position - 1) % len(PEOPLE)]
    team = [leader, rng.choice([p for p in PEOPLE if p != leader])]
    events.append({"kind": "phase", "day": 1, "name": "team"})
    events.append({"kind": "propose", "leader": leader, "team": team})
    approvals = 0
    for voter in PEOPLE:
        approve = voter in team or voter in evil or rng.random() < 0.5
        approvals += approve
        events.append({"kind": "vote", "voter": voter, "ballot": "team", "choice": "approve" if approve else "reject"})
    approved = approvals >= 3
    events.append({"kind": "outcome", "ballot": "team", "result": "approved" if approved else "rejected",
                   "what": f"{leader}'s team ({', '.join(team)}) was {'approved' if approved else 'rejected'}, "
                           f"{approvals} votes to {len(PEOPLE) - approvals}.", "about": team})
    fails = 0
    if approved:
        events.append({"kind": "phase", "day": 1, "name": "quest"})
        for member in team:
            fail = member in evil
            fails += fail
            events.append({"kind": "vote", "voter": member, "ballot": "quest", "choice": "fail" if fail else "success",
                           "secret": True})
        events.append({"kind": "outcome", "ballot": "quest", "result": "fail" if fails else "success",
                       "what": f"Quest 1 ({', '.join(team)}) {'failed' if fails else 'succeeded'} with {fails} fail "
                               f"card{'s' if fails != 1 else ''}.", "about": team})
    events.append({"kind": "phase", "day": 1, "name": "end"})
    events += [{"kind": "reveal", "player": p, "role": roles[p], "witnesses": list(PEOPLE)} for p in PEOPLE]
    events.append({"kind": "end", "winner": "evil side" if fails or not approved else "good side"})
    return roles, events


def write_logs(folder: Path, series: str, games: int, seed: int) -> list[Path]:
    """One canonical log per game of the series, in ``folder``; returns their paths in series order."""
    paths = []
    for position in range(1, games + 1):
        roles, events = script(position, seed)
        path = folder / f"{series}-game-{position:02d}.jsonl"
        lines = [header(series, f"{series}-game-{position:02d}", position, roles), *events]
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        paths.append(path)
    return paths


def context_string(memory: Any, game: str, player: str) -> str:
    """What replaces the engine's ``PlayerMemory.get_context_string()``: the player's recall over the series before
    the game, about the other players (each memory labelled with its game), or "" for a player without series
    memory (the engine's players left out of ``memory_enabled_players``)."""
    if MEMORY[player] == "off":
        return ""
    others = [p for p in PEOPLE if p != player]
    result = memory.recall(game, player, topic="the other players: who was evil, who can be trusted",
                           participants=others, k=8)
    return str(result.prompt())


def play(memory: Any, series: str, games: int, seed: int, out: Path) -> dict[str, Any]:
    """Steps 1-4 of the module docstring on ``memory`` (a MemoryService); returns what a caller checks: the new
    game's id, each player's context, the consolidation report and the reputation rows."""
    paths = write_logs(out, series, games, seed)
    summary = memory.ingest(*paths)
    print(f"series {series}: ingested {summary.games} games ({summary.memories} memories) in {summary.seconds:.1f} s")
    new_game = f"{series}-game-{games + 1:02d}"
    memory.start_game(header(series, new_game, games + 1, roles_of(games + 1)))
    report = memory.consolidate_series(series)
    print(f"cross-game consolidation: {report.summaries} summaries in game {report.game}")
    contexts = {}
    for player in PEOPLE:
        contexts[player] = context_string(memory, new_game, player)
        print(f"\n=== {player} before game {games + 1} ({MEMORY[player]} memory, {PROFILES[player]} profile) ===")
        print(contexts[player] or "(no memory of earlier games)")
    reputation = memory.query("series_reputation", {"series": series}).rows
    print("\nreputation (observer -> observed: right/judgements over games together, memories held):")
    for row in reputation:
        if row["judgements"]:
            print(f"  {row['observer']} -> {row['observed']}: {row['right']}/{row['judgements']} right over "
                  f"{row['games']} games, {row['memories']} memories held")
    picture = out / f"{series}-trust.html"
    from graphmem.viz.trust import render_trust_html

    picture.write_text(render_trust_html(memory.trust_graph(series)), encoding="utf-8")
    print(f"\nwho trusts whom: {picture}")
    return {"game": new_game, "contexts": contexts, "consolidation": report, "reputation": reputation,
            "picture": picture}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games played before the new one (default 4)")
    parser.add_argument("--series", default=f"example-series-{uuid.uuid4().hex[:6]}",
                        help="the series name (default: a new one)")
    parser.add_argument("--seed", type=int, default=7, help="the scripted players' seed")
    parser.add_argument("--out", type=Path, default=None, help="where the logs and the picture go (default: a "
                                                                "temporary folder)")
    args = parser.parse_args(argv)
    from graphmem import MemoryService
    from graphmem.errors import GraphmemError

    try:
        with MemoryService.connect() as memory, tempfile.TemporaryDirectory() as tmp:
            memory.init()
            out = args.out or Path(tmp)
            out.mkdir(parents=True, exist_ok=True)
            played = play(memory, args.series, args.games, args.seed, out)
    except GraphmemError as e:  # e.g. a series name reused: its games are stored already
        print(f"play_series: {e}", file=sys.stderr)
        return 2
    remembered = [p for p, text in played["contexts"].items() if "[Game " in text]
    if len(remembered) != sum(1 for m in MEMORY.values() if m != "off"):
        print(f"expected every player with series memory to recall earlier games; only {remembered} did")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
