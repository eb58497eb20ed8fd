"""A series of games (docs/model.md#series-of-games): the 50 Avalon games of `1_cross_game_learning_50g`, played one
after another by the same five players, ingested as one series; then what each player recalls about each other
player after game 50, and how fast.

    .venv/bin/python -m bench.bench_series [FOLDER] [--profiles balanced,perfect] [--orders played,reversed]
        [--games 50] [--out F.json]

For each profile the games are converted (the avalon-llm importer), every player given that profile, and ingested
as one series of their own into the benchmarks' throw-away Neo4j (or ``$NEO4J_URI``); it prints:

- the ingest's wall time (the whole series, the decay of the earlier games across the gaps included);
- after the last game, each player's recalls (k = 10, dry runs) about each other player, three questions each (the
  name alone, "What do you remember about NAME?", "Was NAME on the evil side?") with that player in the
  conversation: how many different earlier games the memories of each recall come from, and the share of the
  memories of earlier games that come from the first ten games and from the last ten earlier ones (games 1-10 and
  40-49 of 50: the last game itself is not an earlier game; with fewer games, the first and last fifth);
- recall latency for one owner holding every game of the series, in-process (median and p95 ms): dry runs
  (candidates held), writing recalls, and dry runs right after a write of the same owner; before them, ``--warm-up``
  writing recalls of the other players (default 100, timed apart: Neo4j compiles its code paths as it first meets
  them, :data:`WARM_UP`).

Each profile is measured twice by default: on the series as played and on the same games in reverse order. The games
played last may simply hold more of what is asked about (they do: the players talk differently after 40 games), so
one order alone cannot say whether a profile favours recent games; with both, the gap between the last and the first
ten splits into what recency gives (the same in both orders) and what the games hold (opposite in each), printed
under the table (:func:`recency`). A profile that never forgets should show no recency.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import neo4j

from graphmem.embedding import Embedder
from graphmem.importers import load_game_log
from graphmem.logs.writer import game_log_lines
from graphmem.service import MemoryService

DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "shared" / "data" / "avalon-llm" / "1_cross_game_learning_50g"
TOPICS = ("who failed the quests", "{name} was on the evil side", "did {name} lie about the team",
          "Merlin was assassinated", "which team should we approve", "{name} blends in early")


def series_logs(folder: Path, games: int, profile: str, out: Path, order: str = "played") -> tuple[str, list[Path]]:
    """The first ``games`` games of ``folder`` as canonical logs in ``out``, each player on ``profile``, under fresh
    game ids in a fresh series (its name, the files in series order); ``order`` "played" keeps the order they were
    played in, "reversed" makes the last game played the first of the series."""
    series = f"bench-{profile}-{uuid.uuid4().hex[:6]}"
    files = sorted((folder / "individual_games").glob("game_*.json"))[:games]
    if order == "reversed":
        files.reverse()
    paths = []
    for position, path in enumerate(files, start=1):
        lines = list(game_log_lines(load_game_log(path, "avalon-llm")))
        header = json.loads(lines[0])
        header["game"] = f"{series}-{position:02d}"
        header["series"] = {"name": series, "position": position}
        for player in header["players"]:
            player["profile"] = profile
        target = out / f"{header['game']}.jsonl"
        target.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
        paths.append(target)
    return series, paths


def ms(values: Sequence[float]) -> dict[str, float]:
    """median and p95 in ms of timings in seconds."""
    ordered = sorted(values)
    return {"median": round(1000 * statistics.median(ordered), 1),
            "p95": round(1000 * ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], 1)}


WARM_UP = 100
"""Writing recalls of the other players before the timed ones: on a freshly started Neo4j the writing recalls' p95
was 130-166 ms over the first 40, 65 ms over the next 40 and 45 ms over the 40 after (its JIT compilers used 14-16,
4 and 3-4 s of CPU during those rounds; bench/README.md, "Recall latency while Neo4j warms up")."""


def run_profile(memory: MemoryService, folder: Path, games: int, profile: str, repeats: int,
                keep: bool = False, order: str = "played", warm_up: int = WARM_UP) -> dict[str, Any]:
    """Ingest the series on ``profile`` and measure (see the module docstring); its games are deleted afterwards
    unless ``keep`` (the full-text scores weigh each word by how many memories of the whole database hold it, so a
    series left behind would change the next run's rankings). ``warm_up``: writing recalls (each followed by a dry
    run) of the other players before the timed ones, timed apart (``warm_up_writing_ms``)."""
    with tempfile.TemporaryDirectory() as tmp:
        series, paths = series_logs(folder, games, profile, Path(tmp), order)
        started = time.perf_counter()
        summary = memory.ingest(*paths)
        ingest_seconds = time.perf_counter() - started
    try:
        return {**_measure(memory, folder, series, games, profile, repeats, summary, ingest_seconds, warm_up),
                "order": order}
    finally:
        if not keep:
            stored = {str(g["game"]) for g in memory.games()}
            for game in [f"{series}-{i:02d}" for i in range(1, games + 1)] + [f"{series}-live"]:
                if game in stored:
                    memory.delete(game)


def _measure(memory: MemoryService, folder: Path, series: str, games: int, profile: str, repeats: int,
             summary: Any, ingest_seconds: float, warm_up: int) -> dict[str, Any]:
    last = f"{series}-{games:02d}"
    people = _players(memory, last)
    per_pair = pair_recalls(memory, last, people, games)
    earlier_total = sum(r["earlier"] for r in per_pair)
    owner = people[0]
    topics = [t.format(name=n) for t in TOPICS for n in people if n != owner][:24]
    # Neo4j compiles its code paths as recalls first meet them (the first writes, the first reads after a write):
    # writing recalls of the other players, each followed by a dry run, timed apart from the figures
    warming = []
    for i in range(warm_up):
        other = people[1 + i % (len(people) - 1)]
        warming.append(_timed(memory, last, other, TOPICS[i % len(TOPICS)].format(name=owner), False))
        _timed(memory, last, other, TOPICS[(i + 1) % len(TOPICS)].format(name=owner), True)
    memory.recall(last, owner, topics[0], dry_run=True)  # the owner's first recall reads every game once
    held = [_timed(memory, last, owner, topics[i % len(topics)], True) for i in range(repeats)]
    writing, after = [], []
    for i in range(repeats):
        writing.append(_timed(memory, last, owner, topics[i % len(topics)], False))
        after.append(_timed(memory, last, owner, topics[(i + 1) % len(topics)], True))
    # a live game joins the series next: what opening it and each of its phase events cost (every earlier game is
    # decayed on to the series' present each time)
    header = json.loads((Path(folder) / "individual_games").joinpath("game_01.json").read_text(encoding="utf-8"))
    live = f"{series}-live"
    names = [str(p["name"]) for p in header["players"]]
    started = time.perf_counter()
    memory.start_game({"kind": "game", "format": "graphmem/1", "game": live, "series": {"name": series},
                       "players": [{"name": n, "role": "good", "profile": profile} for n in names]})
    open_seconds = time.perf_counter() - started
    phase_seconds = []
    for day in (1, 2):
        started = time.perf_counter()
        memory.add_events(live, [{"kind": "phase", "day": day, "name": "discussion"}])
        phase_seconds.append(time.perf_counter() - started)
    return {
        "profile": profile, "series": series, "games": games, "memories": summary.memories,
        "live_open_seconds": round(open_seconds, 2), "live_phase_seconds": [round(x, 2) for x in phase_seconds],
        "ingest_seconds": round(ingest_seconds, 1),
        "ingest_stages": {k: round(v, 1) for k, v in summary.stages.items()},
        "pairs": len(per_pair), "min_games_per_pair": min(r["games"] for r in per_pair),
        "pairs_per_topic": {t: sum(1 for r in per_pair if r["topic"] == t and r["games"] >= 3) for t in PAIR_TOPICS},
        "pairs_with_3_games": sum(1 for r in per_pair if r["games"] >= 3),
        "mean_games_per_pair": round(statistics.mean(r["games"] for r in per_pair), 2),
        "earlier_share": round(earlier_total / max(1, sum(r["memories"] for r in per_pair)), 3),
        "share_first": round(sum(r["first"] for r in per_pair) / max(1, earlier_total), 3),
        "share_last": round(sum(r["last"] for r in per_pair) / max(1, earlier_total), 3),
        "first_games": per_pair[0]["first_games"], "last_games": per_pair[0]["last_games"],
        "latency_owner": owner, "latency_candidates": memory.recall(last, owner, topics[0], dry_run=True).candidates,
        "held_ms": ms(held), "writing_ms": ms(writing), "after_write_ms": ms(after), "per_pair": per_pair,
        "warm_up": warm_up, "warm_up_writing_ms": ms(warming) if warming else None,
    }


ORDERS = ("played", "reversed")
"""The orders a series is ingested in: as played (game 1 first) and reversed (the last game played first)."""

PAIR_TOPICS = ("{name}", "What do you remember about {name}?", "Was {name} on the evil side?")
"""What each player is asked about each other player (three questions: on ``perfect`` most relevant memories score
the same, so one question per pair leaves the share of each game to a few ties)."""


def pair_recalls(memory: MemoryService, last: str, people: Sequence[str], games: int) -> list[dict[str, Any]]:
    """Each player's recalls in the last game about each other player (:data:`PAIR_TOPICS`, that player in the
    conversation, k = 10, dry runs): per recall the memories, those of earlier games, the earlier games they come
    from, and how many come from the first and from the last ten earlier games (the first and last fifth of fewer)."""
    tenth = max(1, games // 5) if games < 50 else 10
    first, final = range(1, tenth + 1), range(games - tenth, games)
    out: list[dict[str, Any]] = []
    for owner in people:
        for other in people:
            if other == owner:
                continue
            for topic in PAIR_TOPICS:
                result = memory.recall(last, owner, topic.format(name=other), participants=[other], k=10,
                                       dry_run=True)
                earlier = [m.series_game for m in result.memories if m.series_game is not None]
                out.append({"owner": owner, "about": other, "topic": topic, "memories": len(result.memories),
                            "earlier": len(earlier), "games": len(set(earlier)),
                            "first": sum(1 for g in earlier if g in first),
                            "last": sum(1 for g in earlier if g in final),
                            "first_games": f"{first.start}-{first.stop - 1}",
                            "last_games": f"{final.start}-{final.stop - 1}"})
    return out


def _players(memory: MemoryService, game: str) -> list[str]:
    records, _, _ = memory.driver.execute_query("MATCH (:Game {uid: $g})-[:HAS_PLAYER]->(p:Player) RETURN p.name "
                                                "AS name ORDER BY name", g=game)
    return [str(r["name"]) for r in records]


def _timed(memory: MemoryService, game: str, owner: str, topic: str, dry_run: bool) -> float:
    started = time.perf_counter()
    memory.recall(game, owner, topic, dry_run=dry_run)
    return time.perf_counter() - started


def recency(reports: Sequence[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per profile measured in both orders: how much more of what is recalled the last ten earlier games give than the
    first ten because they are recent (``recency``: the mean over the two orders of share_last - share_first, in
    which what the games hold cancels out, since the same games are first in one order and last in the other), and
    because of what those games hold (``content``: half the difference between the orders' gaps; > 0 when the games
    played last hold more of what is asked about)."""
    out: dict[str, dict[str, float]] = {}
    for profile in dict.fromkeys(r["profile"] for r in reports):
        gaps = {r["order"]: r["share_last"] - r["share_first"] for r in reports if r["profile"] == profile}
        if set(gaps) == set(ORDERS):
            out[profile] = {"recency": round((gaps["played"] + gaps["reversed"]) / 2, 3),
                            "content": round((gaps["played"] - gaps["reversed"]) / 2, 3)}
    return out


def table(reports: Sequence[dict[str, Any]]) -> str:
    """The markdown table of the figures of each profile and order, and each profile's :func:`recency`."""
    lines = ["| profile | order | games | memories | ingest | recalls with >= 3 earlier games | "
             "earlier games per recall (mean) | share of recalled from earlier games | from first 10 | from last 10 | "
             "recall held p95 (median) | "
             "writing | after a write |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in reports:
        lines.append(
            f"| {r['profile']} | {r.get('order', 'played')} | {r['games']} | {r['memories']:,} | {r['ingest_seconds']} s | "
            f"{r['pairs_with_3_games']} of {r['pairs']} | {r['mean_games_per_pair']} | {r['earlier_share']} | "
            f"{r['share_first']} ({r['first_games']}) | {r['share_last']} ({r['last_games']}) | "
            f"{r['held_ms']['p95']} ms ({r['held_ms']['median']}) | {r['writing_ms']['p95']} ms "
            f"({r['writing_ms']['median']}) | {r['after_write_ms']['p95']} ms ({r['after_write_ms']['median']}) |")
    notes = [f"{r['profile']}: latency of {r['latency_owner']}'s recalls in the last game, {r['latency_candidates']:,} "
             f"candidates over the series; a live game {r['games'] + 1} joining the series: opened in "
             f"{r['live_open_seconds']} s, each phase event {', '.join(map(str, r['live_phase_seconds']))} s (every "
             "earlier game decayed on); ingest stages " + ", ".join(f"{k} {v} s" for k, v in r["ingest_stages"].items())
             + (f"; the {r['warm_up']} warm-up writing recalls before the latency figures (other "
                f"players): p95 {r['warm_up_writing_ms']['p95']} ms ({r['warm_up_writing_ms']['median']})"
                if r.get("warm_up_writing_ms") else "")
             for r in reports]
    notes += [f"{profile}: the last ten earlier games give {v['recency']:+.3f} of the recalled memories more than "
              f"the first ten for being recent (mean of the two orders), {v['content']:+.3f} for what the games "
              "played last hold" for profile, v in recency(reports).items()]
    return "\n".join([*lines, "", *notes])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_series", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER,
                        help="a folder with individual_games/game_NN.json (default: the 50-game series)")
    parser.add_argument("--profiles", default="balanced,perfect", help="comma-separated profiles")
    parser.add_argument("--games", type=int, default=50, help="the first N games of the series (default 50)")
    parser.add_argument("--repeats", type=int, default=40, help="recalls per latency figure (default 40)")
    parser.add_argument("--orders", default="played,reversed",
                        help="comma-separated series orders: played (game 1 first), reversed (the last game played "
                             "first); with both, the table's last lines give each profile's recency effect")
    parser.add_argument("--warm-up", type=int, default=WARM_UP,
                        help=f"untimed writing recalls of the other players before the latency figures, each "
                             f"followed by a dry run (default {WARM_UP}; 0 times a freshly started Neo4j)")
    parser.add_argument("--keep", action="store_true", help="keep the series' games in the database afterwards")
    parser.add_argument("--out", type=Path, help="write the JSON report here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    if not (args.folder / "individual_games").is_dir():
        parser.error(f"no individual_games/ in {args.folder}")
    orders = [o for o in args.orders.split(",") if o]
    if not orders or any(o not in ORDERS for o in orders):
        parser.error(f"--orders: {args.orders!r}: give one or both of {', '.join(ORDERS)}")
    from bench.run import neo4j_uri  # the benchmarks' throw-away Neo4j, or $NEO4J_URI

    reports = []
    with neo4j_uri() as uri:
        auth = (os.environ.get("NEO4J_USER") or "neo4j", os.environ.get("NEO4J_PASSWORD") or "graphmem")
        with neo4j.GraphDatabase.driver(uri, auth=auth, notifications_min_severity="OFF") as driver:
            with MemoryService(driver, embedder=Embedder()) as memory:
                memory.memory_reader.background = True  # as a server's; the with block settles before the close
                for profile in [p for p in args.profiles.split(",") if p]:
                    for order in orders:
                        reports.append(run_profile(memory, args.folder, args.games, profile, args.repeats,
                                                   args.keep, order, args.warm_up))
                        print(table(reports[-1:]), flush=True)
    print(table(reports))
    if args.out:
        args.out.write_text(json.dumps(reports, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
