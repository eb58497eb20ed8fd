"""``graphmem --help`` starts fast: the command modules are looked up by name and import the database driver, numpy,
pydantic and the model's heavy parts only inside the commands that use them (graphmem/cli/__init__.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from graphmem.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("neo4j", "numpy", "pydantic", "torch", "sklearn", "matplotlib", "fastapi", "graphmem.settings",
         "graphmem.service")


def test_the_help_lists_every_command_with_its_summary() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0, result.output
    listed = [line.split()[0] for line in result.output.split("Commands:\n")[1].splitlines() if line.strip()]
    assert listed == sorted(COMMANDS)
    assert "  model           Inspect the memory model (no database needed).\n" in result.output


def test_the_help_loads_no_heavy_module() -> None:
    # what keeps `graphmem --help` under 0.3 s (issue 27): the seconds themselves are measured by
    # `python -m bench.bench_cli` (bench/README.md), since CPU time grows on a busy machine
    code = ("import sys; from graphmem.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert run.stderr.strip() == "[]"
    assert "Commands:" in run.stdout
