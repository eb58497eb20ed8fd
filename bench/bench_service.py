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

Each level also reports the CPU it cost per call (``cpu_ms_per_call``), from the processes' CPU times in /proc
(:mod:`bench.cpu`), never from wall time: ``graphmem`` (the server process and its workers; in-process, this
process), ``neo4j`` (the process listening on the URI's Bolt port, when it runs on this machine), their sum
``total``, ``clients`` (this process over HTTP or MCP: the clients' own JSON and HTTP) and the machine's idle share
(``/proc/stat``). ``--breakdown N`` adds where a writing recall's CPU goes, part by part (:func:`breakdown`).

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

from bench.cpu import TaskClock, cpu_seconds, descendants, listening_pid

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


Snapshot = Callable[[], dict[str, float]]
"""CPU seconds so far of each process measured ({"graphmem": ..., "neo4j": ..., "clients": ...})."""


def _idle() -> tuple[float, float]:
    """(idle + iowait, all) jiffies of the machine so far (``/proc/stat``)."""
    values = [float(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return values[3] + values[4], sum(values[:8])


def cpu_snapshot(graphmem_pid: int | None, neo4j_pid: int | None) -> Snapshot:
    """The CPU snapshot of a level: ``graphmem_pid`` (None: this process, the in-process path; else the server and
    the workers it forked) and ``neo4j_pid`` (None: not measured), and this process as ``clients`` when the server
    runs apart."""
    def snap() -> dict[str, float]:
        out = {"graphmem": time.process_time() if graphmem_pid is None else cpu_seconds(descendants(graphmem_pid))}
        if neo4j_pid is not None:
            out["neo4j"] = cpu_seconds([neo4j_pid])
        if graphmem_pid is not None:
            out["clients"] = time.process_time()
        return out
    return snap


def _load(clients: int, calls: Sequence[Any], one: Callable[[Any, Any], None],
          session: Callable[[], Any], cpu: Snapshot | None = None) -> dict[str, Any]:
    """Run ``calls`` with ``clients`` threads, each with its own ``session()``; latency of each and throughput, and
    with ``cpu`` the CPU milliseconds per call of each process it measures (``total``: graphmem + Neo4j) and the
    machine's idle share over the level."""
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

    before, idle_before = (cpu() if cpu else {}), _idle()
    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(worker, range(clients)))
    seconds = time.perf_counter() - started
    after, idle_after = (cpu() if cpu else {}), _idle()
    for s in sessions:
        if hasattr(s, "close"):
            s.close()
    out: dict[str, Any] = _stats(times, seconds)
    if cpu is not None:
        per_call = {name: round(1000 * (after[name] - before[name]) / len(times), 2) for name in after}
        if "neo4j" in per_call:
            per_call["total"] = round(per_call["graphmem"] + per_call["neo4j"], 2)
        out["cpu_ms_per_call"] = per_call
        out["idle_share"] = round((idle_after[0] - idle_before[0]) / max(idle_after[1] - idle_before[1], 1.0), 3)
    return out


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


PATHS = ("in_process", "vector_top_k", "http", "mcp")
"""The access paths timed at each level (the module docstring)."""


def neo4j_pid_of(uri: str) -> int | None:
    """The pid of the local process listening on the Bolt port of ``uri`` (None: not on this machine)."""
    from urllib.parse import urlsplit

    parts = urlsplit(uri)
    if parts.hostname not in ("127.0.0.1", "localhost", "::1") or parts.port is None:
        return None
    return listening_pid(parts.port)


def run(uri: str, games_path: Path | None = None, calls: int = 480, clients: Sequence[int] = CLIENTS,
        players_per_game: int = 3, paths: Sequence[str] = PATHS, workers: Sequence[int] = (1, 2),
        breakdown_calls: int = 0) -> dict[str, Any]:
    """Every figure of the module docstring; returns {games, memories, base: {clients: {path: stats}},
    processes: {workers: {clients: {path: stats}}}, breakdown (with ``breakdown_calls``), load_average}. ``paths``
    and ``workers`` choose what runs (all of it: bench.run's table)."""
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
        neo4j_pid = neo4j_pid_of(uri)
        results: dict[str, Any] = {"games": len(wanted), "memories": int(memories), "owners": len(owners),
                                   "calls": calls, "load_average_start": os.getloadavg()[0], "processes": {},
                                   "neo4j_pid": neo4j_pid}

        def in_process(_: Any, call: tuple[str, str, str]) -> None:
            service.recall(call[0], call[1], call[2])

        vectors = {c: service.embedder.encode_one(c[2]).tolist() for c in plan(calls)}

        def vector(session: Any, call: Any) -> None:
            session.run(REFERENCE, k=10, v=vectors[call]).data()

        base: dict[str, Any] = {}
        _load(8, plan(len(owners)), in_process, lambda: None)  # every owner's first recall, untimed
        if breakdown_calls:
            results["breakdown"] = breakdown(service, plan(breakdown_calls), neo4j_pid)
            log.info("breakdown: %s", json.dumps(results["breakdown"]))
        here = cpu_snapshot(None, neo4j_pid)
        for n in clients:
            _load(n, plan(16), in_process, lambda: None)
            base[str(n)] = {}
            if "in_process" in paths:
                base[str(n)]["in_process"] = _load(n, plan(calls), in_process, lambda: None, here)
            if "vector_top_k" in paths:
                base[str(n)]["vector_top_k"] = _load(n, list(vectors), vector,
                                                     lambda: service.driver.session(database=service.database), here)
            log.info("in-process, %d clients: %s", n, base[str(n)])
        results["base"] = base
        with tempfile.TemporaryDirectory(prefix="graphmem-bench-serve-") as tmp:
            for processes in workers if {"http", "mcp"} & set(paths) else ():
                server = _Server(uri, processes, Path(tmp))
                there = cpu_snapshot(server.process.pid, neo4j_pid)
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
                    _load(8, plan(len(owners) * processes * 2), http, client)
                    for n in clients:
                        _load(n, plan(16), http, client)
                        levels[str(n)] = {name: _load(n, plan(calls), way, client, there)
                                          for name, way in (("http", http), ("mcp", mcp)) if name in paths}
                        log.info("%d process(es), %d clients: %s", processes, n, levels[str(n)])
                    results["processes"][str(processes)] = levels
                finally:
                    server.stop()
        results["load_average_end"] = os.getloadavg()[0]
        return results
    finally:
        service.close()


def _median_ms(values: Sequence[float]) -> float:
    return round(1000 * statistics.median(values), 2) if values else 0.0


def _mean_ms(values: Sequence[float]) -> float:
    return round(1000 * statistics.fmean(values), 2) if values else 0.0


def breakdown(service: Any, calls: Sequence[tuple[str, str, str]], neo4j_pid: int | None) -> dict[str, Any]:
    """Where one writing recall's CPU goes, part by part: ``calls`` writing recalls in-process, one after another
    (no concurrency: every CPU second is this call's), each followed by the work its process does after it returns
    (the second raise, :meth:`graphmem.store.reader.MemoryReader.settle`), in two passes.

    1. The graphmem process: for each stage of the pipeline (``RecallResult.cpu_timings``: the request thread's
       CPU; ``timings``: wall time), the whole process per call (``time.process_time``, every thread: the
       difference to the request thread's total is the model's thread, the topic's forward pass, and the cache's),
       and Neo4j's CPU per call over the pass (/proc, clock ticks: averaged over every call).
    2. Neo4j's CPU for each transaction the recall runs, named by its queries (``cypher/`` files; "inline" for
       others), from the scheduler's nanosecond account of every Neo4j thread (:class:`bench.cpu.TaskClock`) read
       around each transaction; not in pass 1, whose per-stage figures the readings would inflate.

    Plus the topic's embedding alone (``Embedder.encode_one`` of as many new topics, one at a time: the process's
    CPU per topic). Returns {calls, stages: {name: {cpu_ms, wall_ms}} (means; wall also median), process_cpu_ms,
    request_thread_cpu_ms, neo4j_cpu_ms, transactions: {name: {count_per_call, cpu_ms, wall_ms}}, embed_one_cpu_ms}.
    """
    import neo4j

    from graphmem.store.queries import cypher, in_sequence, query_names
    from graphmem.store.versions import statement_parts

    half = len(calls) // 2
    stage_cpu: dict[str, list[float]] = {}
    stage_wall: dict[str, list[float]] = {}
    process: list[float] = []
    neo_before = cpu_seconds([neo4j_pid]) if neo4j_pid else 0.0
    for game, player, topic in calls[:half]:
        before = time.process_time()
        result = service.recall(game, player, topic)
        service.memory_reader.settle()
        process.append(time.process_time() - before)
        for name, value in result.cpu_timings.items():
            stage_cpu.setdefault(name, []).append(value)
            stage_wall.setdefault(name, []).append(result.timings[name])
    neo_total = (cpu_seconds([neo4j_pid]) - neo_before) / max(half, 1) if neo4j_pid else None

    names = {str(cypher(name)): name for name in query_names()}
    for fenced in (False, True):  # a writing recall's one statement (graphmem.store.versions.run_raising_versions)
        parts = statement_parts("recall/write", fenced=fenced)
        names[str(in_sequence(*parts))] = " + ".join(parts) + " (one statement)"
    clock = TaskClock([neo4j_pid] if neo4j_pid else [])
    local = threading.local()
    spent: dict[str, list[tuple[float, float]]] = {}
    originals = (neo4j.Session.execute_read, neo4j.Session.execute_write, neo4j.Driver.execute_query,
                 neo4j.ManagedTransaction.run)

    def named(query: Any) -> str:
        return names.get(str(getattr(query, "text", query)), "inline")

    def timed(original: Callable[..., Any], first: Callable[[Any], str | None]) -> Callable[..., Any]:
        def wrapper(self: Any, work: Any, *args: Any, **kwargs: Any) -> Any:
            if getattr(local, "queries", None) is not None:  # inside a measured call already
                return original(self, work, *args, **kwargs)
            local.queries = [] if first(work) is None else [first(work)]
            cpu0, wall0 = clock.seconds(), time.perf_counter()
            try:
                return original(self, work, *args, **kwargs)
            finally:
                wall, cpu = time.perf_counter() - wall0, clock.seconds() - cpu0
                key = " + ".join(dict.fromkeys(local.queries)) or "none"
                spent.setdefault(key, []).append((cpu, wall))
                local.queries = None
        return wrapper

    def run(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(local, "queries", None) is not None:
            local.queries.append(named(query))
        return originals[3](self, query, *args, **kwargs)

    neo4j.Session.execute_read = timed(originals[0], lambda _: None)  # type: ignore[method-assign]
    neo4j.Session.execute_write = timed(originals[1], lambda _: None)  # type: ignore[method-assign]
    neo4j.Driver.execute_query = timed(originals[2], named)  # type: ignore[method-assign]
    neo4j.ManagedTransaction.run = run  # type: ignore[method-assign]
    try:
        for game, player, topic in calls[half:]:
            service.recall(game, player, topic)
            service.memory_reader.settle()
    finally:
        neo4j.Session.execute_read, neo4j.Session.execute_write = originals[0], originals[1]  # type: ignore[method-assign]
        neo4j.Driver.execute_query = originals[2]  # type: ignore[method-assign]
        neo4j.ManagedTransaction.run = originals[3]  # type: ignore[method-assign]
    second = max(len(calls) - half, 1)

    embed: list[float] = []
    for i, (_, _, topic) in enumerate(calls[:half]):
        before = time.process_time()
        service.embedder.encode_one(f"{topic} (embedded alone {i})")
        embed.append(time.process_time() - before)
    return {
        "calls": half,
        "stages": {name: {"cpu_ms": _mean_ms(stage_cpu[name]), "wall_ms": _mean_ms(stage_wall[name]),
                          "wall_median_ms": _median_ms(stage_wall[name])} for name in stage_cpu},
        "process_cpu_ms": _mean_ms(process),
        "request_thread_cpu_ms": _mean_ms(stage_cpu.get("total", [])),
        "neo4j_cpu_ms": None if neo_total is None else round(1000 * neo_total, 2),
        "transactions": {key: {"count_per_call": round(len(values) / second, 2),
                               "cpu_ms": _mean_ms([c for c, _ in values]), "wall_ms": _mean_ms([w for _, w in values])}
                         for key, values in sorted(spent.items())},
        "embed_one_cpu_ms": _mean_ms(embed),
    }


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
    level = one.get("8", {}).get("http", {})
    cpu = level.get("cpu_ms_per_call", {})
    if "total" in cpu:  # Neo4j ran on this machine: issue 41's figure
        ip_cpu = results["base"].get("8", {}).get("in_process", {}).get("cpu_ms_per_call", {})
        out.append({"figure": "CPU per writing recall over HTTP, 8 clients (server + Neo4j, from /proc)",
                    "size": results["memories"],
                    "graphmem": f"{cpu['total']} ms ({cpu['graphmem']} server + {cpu['neo4j']} Neo4j); p95 "
                                f"{level['p95_ms']} ms",
                    "reference": f"in-process {ip_cpu.get('total', '-')} ms ({ip_cpu.get('graphmem', '-')} + "
                                 f"{ip_cpu.get('neo4j', '-')})",
                    "speed": None, "target": "<= 12 ms, p95 <= 150 ms",
                    "met": cpu["total"] <= 12.0 and level["p95_ms"] <= 150.0})
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
    parser.add_argument("--clients", type=int, nargs="+", default=list(CLIENTS), help="concurrent clients per level")
    parser.add_argument("--paths", nargs="+", choices=PATHS, default=list(PATHS), help="the access paths timed")
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2],
                        help="server processes of each HTTP/MCP run (none: no server)")
    parser.add_argument("--breakdown", type=int, default=0, metavar="N",
                        help="also break N writing recalls down part by part (breakdown())")
    args = parser.parse_args(argv[1:])
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    for noisy in ("neo4j", "httpx", "graphmem"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    started = time.perf_counter()
    results = run(args.uri, args.games, calls=args.calls, clients=args.clients, paths=args.paths,
                  workers=args.workers, breakdown_calls=args.breakdown)
    results["seconds"] = round(time.perf_counter() - started, 1)
    if args.out:
        args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(json.dumps(results, indent=2))
    levels = [(f"{n} client(s), in-process", stats) for n, paths in results["base"].items() for stats in
              [paths.get("in_process")] if stats] + \
             [(f"{n} client(s), {path.upper()}, {w} process(es)", stats) for w, by_n in results["processes"].items()
              for n, paths in by_n.items() for path, stats in paths.items()]
    for name, stats in levels:  # one line per level: latency, throughput, CPU per call (issue 41)
        cpu = stats.get("cpu_ms_per_call", {})
        print(f"{name}: p50 {stats['p50_ms']} ms, p95 {stats['p95_ms']} ms, {stats['per_s']}/s; CPU per call "
              + ", ".join(f"{k} {v} ms" for k, v in cpu.items()))
    if set(PATHS) > set(args.paths) or {1, 2} - set(args.workers):
        return  # the table's rows need every path with one and with two processes
    for r in rows(results):
        met = "-" if r["met"] is None else ("yes" if r["met"] else "no")
        speed = "-" if r["speed"] is None else f"{r['speed']:.2f}"
        print(f"| {r['figure']} | {r['size']:,} | {r['graphmem']} | {r['reference']} | {speed} | {r['target']} | "
              f"{met} |  |")


if __name__ == "__main__":
    main(sys.argv)
