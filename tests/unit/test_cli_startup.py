"""``graphmem --help`` starts fast: the command modules are looked up by name and import the database driver, numpy,
pydantic and the model's heavy parts only inside the commands that use them (graphmem/cli/__init__.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
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


def test_the_help_loads_no_heavy_module_and_takes_under_0_3_s_of_cpu() -> None:
    code = ("import sys; from graphmem.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    seconds = []
    for _ in range(3):  # the best of three: CPU time, so that a busy machine's waiting does not count
        before = os.times()
        run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                             check=True)
        after = os.times()
        seconds.append(after.children_user - before.children_user + after.children_system - before.children_system)
        assert run.stderr.strip() == "[]"
        assert "Commands:" in run.stdout
    assert min(seconds) < 0.3, seconds


def test_a_command_is_imported_when_it_is_run() -> None:
    code = ("import sys; from graphmem.cli import main\n"
            "try:\n    main(['model', 'curve', '--phases', '1', '--json'])\nexcept SystemExit:\n    pass\n"
            "print('graphmem.cli.model_cmd' in sys.modules, 'graphmem.cli.ingest_cmd' in sys.modules, file=sys.stderr)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert time.monotonic() - start < 60
    assert run.stderr.strip() == "True False"
    assert '"kind": "flashbulb"' in run.stdout
