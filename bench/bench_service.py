"""Benchmark of the service (docs/service.md): recall over HTTP and over MCP, the topic embedded by the server, on the 40
real games stored, at 1, 8 and 32 concurrent clients, next to the same recalls in-process and a bare Neo4j vector
top-k, with one and with two server processes.

Every call is a writing recall (reconsolidation written back) of one of three players of each game, with a topic
nobody asked before (so every call embeds its topic: no cache helps), k = 10. Clients are threads of this process,
each with its own keep-alive HTTP connection, every one sending its next call as soon as the previous answer
arrived; each level runs ``calls`` calls in all. Before the first level of each path every owner is recalled once
per process (untimed): a process's first recall of an owner reads that owner's vectors and embeds their keywords
(0.2-0.4 s, :mod:`graphmem.recall.vectors`), which a running server pays once per player, and 240 calls over 120
owners would otherwise time half their calls cold. The server, Neo4j and the clients share the machine's cores:
on 2 cores the clients' own work (JSON, HTTP) is part of what is measured.

- in-process: the same recalls through one :class:`graphmem.service.MemoryService` shared by the client threads
  (what an engine written in Python gets without a server);
- HTTP: ``POST /games/{game}/players/{player}/recall`` with the engine key;
- MCP: JSON-RPC ``tools/call recall`` at ``/mcp`` (stateless streamable HTTP, JSON answers) with the player's token;
- vector top-k: ``db.index.vector.queryNodes`` top-10 of a precomputed topic vector (no recall at all).

``python -m bench.bench_service URI [GAMES]`` runs it alone against a Neo4j (it ingests the games when they are
not stored); ``python -m bench.run`` runs it with the other benchmarks.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = (1, 8, 32)
KEY = "bench-engine-key"
TOPICS = ("Is {p} a traitor?", "what did {p} tell me in private", "who should we banish today",
          "{p} voted against me at the round table")
REFERENCE = ("CALL db.index.vector.queryNodes('memory_embedding', $k, $v) YIELD node, score "
             "RETURN node.uid AS uid, score")


def real_games() -> Path:
    """The 40 real games (``$GRAPHMEM_TRAITORS_DATA`` or ``../shared/data/traitors-llm/games``), else the three
    shipped examples."""
    for candidate in (os.environ.get("GRAPHMEM_TRAITORS_DATA", ""), str(ROOT.parent / "shared" / "data" /
                                                                         "traitors-llm" / "games")):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return ROOT / "examples" / "traitors-llm"


def _stats(samples: Sequence[float], seconds: float) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50_ms": round(1000 * statistics.median(ordered), 1), "p95_ms": round(1000 * p95, 1),
            "per_s": round(len(ordered) / seconds, 1), "calls": len(ordered)}


def _load(clients: int, calls: Sequence[Any], one: Callable[[Any, Any], None],
          session: Callable[[], Any]) -> dict[str, float]:
    """Run ``calls`` with ``clients`` threads, each with its own ``session()``; latency of each and throughput."""
    sessions = [session() for _ in range(clients)]
    lock = threading.Lock()
    queue = list(calls)
    times: list[float] = []

    def worker(i: int) -> None:
        while True:
            with lock:
                if not queue:
                    return
                call = queue.pop()
            t0 = time.perf_counter()
            one(sessions[i], call)
            elapsed = time.perf_counter() - t0
            with lock:
                times.append(elapsed)

    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(worker, range(clients)))
    seconds = time.perf_counter() - started
    for s in sessions:
        if hasattr(s, "close"):
            s.close()
    return _stats(times, seconds)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Server:
    """``graphmem serve --workers N`` in a subprocess, ready (model loaded in every worker) before use."""

    def __init__(self, uri: str, workers: int, folder: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
        env.update({"NEO4J_URI": uri, "GRAPHMEM_ENGINE_KEY": KEY})
        self.log = (folder / f"serve-{self.port}.log").open("wb")
        self.process = subprocess.Popen([sys.executable, "-m", "graphmem.cli", "serve", "--port", str(self.port),
                                         "--workers", str(workers), "--log-level", "warning"],
                                        stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 300
        ready = 0
        while time.monotonic() < deadline and ready < 4 * workers:  # several answers: every worker warm
            if self.process.poll() is not None:
                raise RuntimeError(f"graphmem serve exited: see {self.log.name}")
            try:
                ready = ready + 1 if httpx.get(self.url + "/ready", timeout=10).status_code == 200 else 0
            except httpx.HTTPError:
                ready = 0
            time.sleep(0.5)
        if ready < 4 * workers:
            self.stop()
            raise RuntimeError("graphmem serve did not become ready")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


def run(uri: str, games_path: Path | None = None, calls: int = 480, clients: Sequence[int] = CLIENTS,
        players_per_game: int = 3) -> dict[str, Any]:
    """Every figure of the module docstring; returns {games, memories, levels: {clients: {path: stats}},
    processes: {1: ..., 2: ...}, load_average}."""
    from graphmem.service import MemoryService
    from graphmem.settings import load_settings

    settings = load_settings().with_overrides(uri=uri)
    service = MemoryService.connect(settings)
    try:
        games_path = games_path or real_games()
        stored = {g["game"] for g in service.games() if g["complete"]}
        wanted = sorted(p.name for p in games_path.iterdir() if (p / "plomp.json").is_file())
        if not set(wanted) <= stored:
            service.ingest(games_path)
        players = {r["game"]: r["names"] for r in service.driver.execute_query(
            "MATCH (g:Game)-[:HAS_PLAYER]->(p:Player {status: 'alive'}) WHERE g.uid IN $games WITH g, p "
            "ORDER BY p.name RETURN g.uid AS game, collect(p.name) AS names", games=wanted).records}
        memories = service.driver.execute_query("MATCH (m:Memory) WHERE m.game IN $games RETURN count(m) AS n",
                                                games=wanted).records[0]["n"]
        owners = [(g, p) for g in wanted for p in players.get(g, [])[:players_per_game]]
        tokens = {(g, p): service.mint_token(g, p) for g, p in owners}
        counter = iter(range(10**9))

        def plan(n: int) -> list[tuple[str, str, str]]:
            """n calls, each with a topic never asked before."""
            out = []
            for i in range(n):
                game, player = owners[i % len(owners)]
                names = players[game]
                other = names[(names.index(player) + 1) % len(names)]
                out.append((game, player, TOPICS[i % len(TOPICS)].format(p=other) + f" (call {next(counter)})"))
            return out

        service.warm_up()
        results: dict[str, Any] = {"games": len(wanted), "memories": int(memories), "owners": len(owners),
                                   "calls": calls, "load_average_start": os.getloadavg()[0], "processes": {}}

        def in_process(_: Any, call: tuple[str, str, str]) -> None:
            service.recall(call[0], call[1], call[2])

        vectors = {c: service.embedder.encode_one(c[2]).tolist() for c in plan(calls)}

        def vector(session: Any, call: Any) -> None:
            session.run(REFERENCE, k=10, v=vectors[call]).data()

        base: dict[str, Any] = {}
        _load(8, plan(len(owners)), in_process, lambda: None)  # every owner's first recall, untimed
        for n in clients:
            _load(n, plan(16), in_process, lambda: None)
            base[str(n)] = {"in_process": _load(n, plan(calls), in_process, lambda: None),
                            "vector_top_k": _load(n, list(vectors), vector,
                                                  lambda: service.driver.session(database=service.database))}
            log.info("in-process, %d clients: %s", n, base[str(n)])
        results["base"] = base
        with tempfile.TemporaryDirectory(prefix="graphmem-bench-serve-") as tmp:
            for workers in (1, 2):
                server = _Server(uri, workers, Path(tmp))
                try:
                    def http(session: httpx.Client, call: tuple[str, str, str]) -> None:
                        answer = session.post(f"/games/{call[0]}/players/{call[1]}/recall", json={"topic": call[2]})
                        answer.raise_for_status()

                    def mcp(session: httpx.Client, call: tuple[str, str, str]) -> None:
                        answer = session.post("/mcp", headers={"Authorization": f"Bearer {tokens[call[0], call[1]]}"},
                                              json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
                                                  "name": "recall", "arguments": {"topic": call[2]}}})
                        answer.raise_for_status()
                        if answer.json()["result"].get("isError"):
                            raise RuntimeError(answer.text[:300])

                    def client(url: str = server.url) -> httpx.Client:
                        return httpx.Client(base_url=url, timeout=120, headers={
                            "Authorization": f"Bearer {KEY}", "Accept": "application/json, text/event-stream"})

                    levels: dict[str, Any] = {}
                    # every owner's first recall in each process, untimed (requests spread over the processes)
                    _load(8, plan(len(owners) * workers * 2), http, client)
                    for n in clients:
                        _load(n, plan(16), http, client)
                        levels[str(n)] = {"http": _load(n, plan(calls), http, client),
                                          "mcp": _load(n, plan(calls), mcp, client)}
                        log.info("%d process(es), %d clients: %s", workers, n, levels[str(n)])
                    results["processes"][str(workers)] = levels
                finally:
                    server.stop()
        results["load_average_end"] = os.getloadavg()[0]
        return results
    finally:
        service.close()


def rows(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The summary rows of bench.run's table (see bench/README.md)."""
    out: list[dict[str, Any]] = []
    one = results["processes"]["1"]
    two = results["processes"]["2"]
    targets: dict[str, tuple[str, Callable[[dict[str, float]], bool]]] = {
        "1": ("p95 <= 50 ms", lambda s: s["p95_ms"] <= 50.0),
        "8": ("p95 <= 150 ms, >= 100/s", lambda s: s["p95_ms"] <= 150.0 and s["per_s"] >= 100.0)}
    for n, levels in one.items():
        base = results["base"][n]
        ip, vec = base["in_process"], base["vector_top_k"]
        for path in ("http", "mcp"):
            s = levels[path]
            target, check = targets[n] if n in targets else ("-", None)
            out.append({
                "figure": f"recall over {path.upper()}, {n} client{'s' if n != '1' else ''}",
                "size": results["memories"],
                "graphmem": f"p95 {s['p95_ms']} ms (p50 {s['p50_ms']}), {s['per_s']}/s; 2 processes: p95 "
                            f"{two[n][path]['p95_ms']} ms (p50 {two[n][path]['p50_ms']}), {two[n][path]['per_s']}/s",
                "reference": f"in-process p95 {ip['p95_ms']} ms (p50 {ip['p50_ms']}), {ip['per_s']}/s; bare vector "
                             f"top-k p95 {vec['p95_ms']} ms, {vec['per_s']}/s",
                "speed": round(ip["p50_ms"] / s["p50_ms"], 3) if s["p50_ms"] else None,
                "target": target, "met": None if check is None else check(s)})
    inproc = results["base"]["1"]["in_process"]["p50_ms"]
    added = one["1"]["http"]["p50_ms"] - inproc
    out.append({"figure": "service overhead, HTTP p50 - in-process p50, 1 client", "size": results["memories"],
                "graphmem": f"{added:+.1f} ms", "reference": f"in-process p50 {inproc} ms", "speed": None,
                "target": "<= 5 ms", "met": added <= 5.0})
    return out


def main(argv: Sequence[str]) -> None:
    """``python -m bench.bench_service URI [GAMES] [--calls N] [--out FILE]``: the figures as JSON, and the rows of
    bench.run's table as Markdown."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench.bench_service", description=__doc__.splitlines()[0])
    parser.add_argument("uri")
    parser.add_argument("games", nargs="?", type=Path, default=None)
    parser.add_argument("--calls", type=int, default=480, help="calls per level and access path")
    parser.add_argument("--out", type=Path, default=None, help="write the JSON report here")
    args = parser.parse_args(argv[1:])
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    for noisy in ("neo4j", "httpx", "graphmem"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    started = time.perf_counter()
    results = run(args.uri, args.games, calls=args.calls)
    results["seconds"] = round(time.perf_counter() - started, 1)
    if args.out:
        args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(json.dumps(results, indent=2))
    for r in rows(results):
        met = "-" if r["met"] is None else ("yes" if r["met"] else "no")
        speed = "-" if r["speed"] is None else f"{r['speed']:.2f}"
        print(f"| {r['figure']} | {r['size']:,} | {r['graphmem']} | {r['reference']} | {speed} | {r['target']} | "
              f"{met} |  |")


if __name__ == "__main__":
    main(sys.argv)
