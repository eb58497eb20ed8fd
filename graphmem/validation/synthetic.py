"""Synthetic Avalon games whose believers weigh the evidence in a known way: the check that the comparison with
people can see an effect (docs/validation.md#can-the-instrument-see-an-effect).

A game has six players (Merlin, Percival, Morgana, the Assassin, two servants) and the phases of the Avalon-NLU
importer: each party proposal is a phase ``team`` (a few chat lines with a stance each, the proposal, every
player's party vote and its outcome), each quest's result a phase ``quest``. Stances are explicit claims
(``suspects``, ``trusts``). After each phase, each servant and Percival may state a belief about another player:
on the evil side with probability ``sigmoid(BIAS + sum_k COEFFICIENTS[k] * sum_items value * w(age))`` over the
evidence of :mod:`graphmem.validation.evidence` as the whole record holds it, where ``w = 0.5 ** (age / half_life)``
(``age`` in phases) for believers who forget, and ``w = 1`` for believers who weigh everything evenly
(``half_life=None``).
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

__all__ = ["COEFFICIENTS", "synthetic_game", "write_synthetic_games"]

PLAYERS = tuple(f"player-{i}" for i in range(1, 7))
ROLES = ("merlin", "percival", "morgana", "assassin", "servant", "servant")
EVIL = ("morgana", "assassin")
TEAM_SIZES = (2, 3, 4, 3, 4)
COEFFICIENTS = {"quest": 1.2, "votes": 0.6, "talk": 0.5, "accusations": 0.8}
"""The simulated believers' weight of each kind of evidence (per unit of weighted evidence)."""
BIAS = -0.9


def synthetic_game(game: str, seed: int, half_life: float | None) -> list[dict[str, Any]]:
    """One synthetic game as canonical JSONL objects (header first). Deterministic for ``seed``."""
    rng = random.Random(seed)
    roles = list(ROLES)
    rng.shuffle(roles)
    role = dict(zip(PLAYERS, roles))
    evil = {p for p in PLAYERS if role[p] in EVIL}
    merlin = next(p for p in PLAYERS if role[p] == "merlin")
    believers = [p for p in PLAYERS if p not in evil and p != merlin]
    out: list[dict[str, Any]] = [{
        "kind": "game", "format": "graphmem/1", "game": game, "title": f"synthetic Avalon game {seed}",
        "players": [{"name": p, "role": role[p]} for p in PLAYERS], "traitor_roles": list(EVIL),
        "side_names": {"traitor": "evil", "faithful": "good"}}]
    for p in PLAYERS:
        out.append({"kind": "reveal", "id": f"r-{p}", "player": p, "role": role[p], "witnesses": [p]})
    for p in sorted(evil):
        out.append({"kind": "reveal", "id": f"r-merlin-{p}", "player": p, "role": "evil", "witnesses": [merlin]})
    # evidence as the whole record holds it: (about, kind, value, phase, only for this believer, not for this one)
    evidence: list[tuple[str, str, float, int, str | None, str | None]] = []
    phase = 0
    n = 0

    def emit(obj: dict[str, Any]) -> None:
        nonlocal n
        n += 1
        obj.setdefault("id", f"e{n}")
        out.append(obj)

    def believe() -> None:
        for b in believers:
            if rng.random() >= 0.6:
                continue
            x = rng.choice([p for p in PLAYERS if p != b])
            z = BIAS
            for about, kind, value, at, only, not_for in evidence:
                if about == x and only in (None, b) and not_for != b:
                    w = 1.0 if half_life is None else 0.5 ** ((phase - at) / half_life)
                    z += COEFFICIENTS[kind] * value * w
            evil_belief = rng.random() < 1 / (1 + math.exp(-z))
            emit({"kind": "belief", "player": b, "about": x, "belief": "evil" if evil_belief else "good"})

    leader = rng.randrange(6)
    for quest, size in enumerate(TEAM_SIZES, start=1):
        for attempt in range(5):
            phase += 1
            emit({"kind": "phase", "day": quest, "name": "team"})
            for _ in range(2):
                speaker = rng.choice(PLAYERS)
                if speaker in evil:
                    target = rng.choice([p for p in PLAYERS if p not in evil])
                    suspects = True
                else:
                    target = rng.choice([p for p in PLAYERS if p != speaker])
                    suspects = (target in evil) == (rng.random() < 0.65)
                verb = "suspects" if suspects else "trusts"
                emit({"kind": "say", "speaker": speaker, "to": "all", "channel": "public",
                      "text": f"I {'suspect' if suspects else 'trust'} {target}.",
                      "claims": [{"subject": speaker, "predicate": verb, "object": target}]})
                evidence.append((target, "talk", 1.0 if suspects else -1.0, phase, None, speaker))
                if suspects:
                    evidence.append((speaker, "accusations", 1.0, phase, target, None))
            who = PLAYERS[leader % 6]
            leader += 1
            team = rng.sample(PLAYERS, size)
            emit({"kind": "propose", "leader": who, "team": team})
            votes = {}
            for p in PLAYERS:
                has_evil = bool(evil & set(team))
                yes = has_evil if p in evil else rng.random() < (0.45 if has_evil else 0.7)
                votes[p] = "approve" if yes or attempt == 4 else "reject"
                emit({"kind": "vote", "voter": p, "ballot": "team", "choice": votes[p]})
            approved = sum(v == "approve" for v in votes.values()) > 3 or attempt == 4
            emit({"kind": "outcome", "ballot": "team", "what": f"{who}'s party was "
                  f"{'approved' if approved else 'rejected'}", "result": "approved" if approved else "rejected",
                  "about": team})
            vote_phase = phase
            believe()
            if not approved:
                continue
            phase += 1
            emit({"kind": "phase", "day": quest, "name": "quest"})
            failed = bool(evil & set(team)) and rng.random() < 0.75
            emit({"kind": "outcome", "ballot": "quest", "what": f"quest {quest} {'failed' if failed else 'succeeded'}",
                  "result": "fail" if failed else "success", "about": team})
            for p in team:
                evidence.append((p, "quest", 1.0 if failed else -1.0, phase, None, None))
            for p, choice in votes.items():
                evidence.append((p, "votes", 1.0 if (choice == "approve") == failed else -1.0, vote_phase, None, None))
            believe()
            break
    emit({"kind": "end", "winner": "good"})
    return out


def write_synthetic_games(folder: Path, games: int, half_life: float | None, seed: int = 0) -> list[Path]:
    """Write ``games`` synthetic games (:func:`synthetic_game`, seeds ``seed``..) as canonical JSONL files into
    ``folder``; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    tag = "even" if half_life is None else f"h{half_life:g}"
    paths = []
    for i in range(games):
        path = folder / f"synthetic-{tag}-{seed + i}.jsonl"
        lines = synthetic_game(f"synthetic-{tag}-{seed + i}", seed + i, half_life)
        path.write_text("".join(json.dumps(obj) + "\n" for obj in lines), encoding="utf-8")
        paths.append(path)
    return paths
