"""How fast ``graphmem --help`` starts (issue 27's target: under 0.3 s on the project machine), best and median of
fresh processes, wall and CPU time (user + system of the child).

    .venv/bin/python -m bench.bench_cli [--runs N]

The unit test ``tests/unit/test_cli_startup.py`` keeps what makes it fast (no heavy module imported by the help);
the seconds belong here, where a busy machine is read as such, not in a test that fails under load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence


def measure(runs: int) -> tuple[list[float], list[float]]:
    """(wall seconds, CPU seconds) of ``runs`` fresh ``python -m graphmem.cli --help`` processes."""
    walls, cpus = [], []
    for _ in range(runs):
        before, started = os.times(), time.perf_counter()
        subprocess.run([sys.executable, "-m", "graphmem.cli", "--help"], check=True, capture_output=True)
        walls.append(time.perf_counter() - started)
        after = os.times()
        cpus.append(after.children_user - before.children_user + after.children_system - before.children_system)
    return walls, cpus


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_cli", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="processes started (default 10)")
    args = parser.parse_args(argv)
    walls, cpus = measure(max(1, args.runs))
    print(f"graphmem --help, {len(walls)} runs, load average {os.getloadavg()[0]:.1f}: wall best {min(walls):.3f} s, "
          f"median {statistics.median(walls):.3f} s; CPU best {min(cpus):.3f} s, median {statistics.median(cpus):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
