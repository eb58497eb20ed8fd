"""Benchmark of the two embedding backends (graphmem/encoders.py): ONNX Runtime against PyTorch, same model.

Three workloads, each on both backends in the same process, interleaved over ``rounds`` rounds:

- ``topic``: one short topic per call (what each recall embeds), 120 distinct topics;
- ``topics x8``: eight topics per call (what the embedder's batching makes of eight concurrent recalls);
- ``messages``: ``--messages`` long messages of the real games in one call (what ingest embeds; 64 per batch);

and the least cosine between the two backends' vectors of every text (they must agree to 1e-4). No Neo4j.

    python -m bench.bench_encoders                 # about a minute; --out PATH writes the JSON
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench.bench_service import real_games
from graphmem.embedding import resolve_model_path
from graphmem.encoders import Encoder, load_encoder

ROOT = Path(__file__).resolve().parents[1]


def real_messages(games: Path, limit: int) -> list[str]:
    """Distinct strings over 20 characters of the game logs under ``games`` (``*/*.json``, the LLM Traitors games'
    layout), in file order, at most ``limit``: what players said, many past the model's 256 tokens."""
    texts: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str) and len(value) > 20:
            texts.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for log in sorted(games.glob("*/*.json")):
        try:
            walk(json.loads(log.read_text(encoding="utf-8")))
        except ValueError:
            continue
        if len(set(texts)) >= limit:
            break
    return list(dict.fromkeys(texts))[:limit]


def _call(encoder: Encoder, texts: list[str]) -> Callable[[], Any]:
    """One timed call: ``texts`` through ``encoder`` in one encode (64 per batch, as the embedder asks)."""
    return lambda: encoder.encode(texts, 64)


def _median_ms(call: Callable[[], Any], calls: list[Callable[[], Any]]) -> float:
    call()  # warm
    times = []
    for each in calls:
        started = time.perf_counter()
        each()
        times.append(1000 * (time.perf_counter() - started))
    return statistics.median(times)


def run(messages: int = 300, rounds: int = 2, cache_dir: Path | None = None) -> dict[str, Any]:
    """Timings (ms, medians over calls, then the best round) per backend and workload, and the backends' least
    cosine. ``cache_dir`` keeps the ONNX file (default: a temporary directory, so the export is timed too)."""
    path = resolve_model_path("all-MiniLM-L6-v2")
    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()  # PyTorch first: its load includes importing it, as in a new process
        encoders: dict[str, Encoder] = {"torch": load_encoder(path, "torch")}
        loaded = {"torch": time.perf_counter() - started}
        started = time.perf_counter()
        encoders["onnx"] = load_encoder(path, "onnx", cache_dir=cache_dir or Path(scratch))
        loaded["onnx"] = time.perf_counter() - started
        questions = ("Is Parker a traitor? day", "what did Riley tell me in private", "who should we banish today, round",
                     "Casey voted against me on")
        topics = [f"{q} {n}" for n in range(30) for q in questions]
        texts = real_messages(real_games(), messages)
        result: dict[str, Any] = {"topics": len(topics), "messages": len(texts), "rounds": rounds,
                                  "load_s": {k: round(v, 2) for k, v in loaded.items()}, "ms": {}}
        best: dict[str, dict[str, float]] = {name: {} for name in encoders}
        for _ in range(rounds):
            for name, encoder in encoders.items():
                figures = {
                    "topic": _median_ms(_call(encoder, topics[:1]), [_call(encoder, [t]) for t in topics]),
                    "topics x8": _median_ms(_call(encoder, topics[:8]),
                                            [_call(encoder, topics[i:i + 8]) for i in range(0, len(topics), 8)]),
                    "messages": _median_ms(_call(encoder, texts[:8]), [_call(encoder, texts)]),
                }
                for key, value in figures.items():
                    best[name][key] = min(best[name].get(key, value), value)
        result["ms"] = {name: {k: round(v, 2) for k, v in figures.items()} for name, figures in best.items()}
        everything = topics + texts
        onnx, torch = encoders["onnx"].encode(everything, 64), encoders["torch"].encode(everything, 64)
        result["least_cosine"] = round(float((onnx * torch).sum(axis=1).min()), 7)
        result["max_abs_difference"] = float(np.abs(onnx - torch).max())
    return result


def table(result: dict[str, Any]) -> str:
    """The result as the Markdown table of bench/README.md."""
    ms = result["ms"]
    lines = ["| workload | PyTorch | ONNX Runtime | PyTorch / ONNX |", "|---|---:|---:|---:|"]
    names = {"topic": "one topic (recall)", "topics x8": "8 topics in one call (8 concurrent recalls)",
             "messages": f"{result['messages']} game messages in one call (ingest)"}
    for key, label in names.items():
        lines.append(f"| {label} | {ms['torch'][key]:.1f} ms | {ms['onnx'][key]:.1f} ms | "
                     f"{ms['torch'][key] / ms['onnx'][key]:.2f} |")
    lines.append(f"| load (PyTorch: import included; ONNX: export and check) | {result['load_s']['torch']:.1f} s | "
                 f"{result['load_s']['onnx']:.1f} s | |")
    texts = result["topics"] + result["messages"]
    agreement = f"Least cosine between the backends' vectors of all {texts} texts: {result['least_cosine']:.7f}"
    return "\n".join(lines) + "\n\n" + agreement


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_encoders", description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=300, help="long game messages embedded in one call")
    parser.add_argument("--rounds", type=int, default=2, help="rounds; each figure is the best round's median")
    parser.add_argument("--out", type=Path, help="write the result as JSON here")
    args = parser.parse_args(argv)
    result = run(args.messages, args.rounds)
    print(table(result))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
