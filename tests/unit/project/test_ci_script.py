"""`.ci/run` must not fail before it reaches the tests: its tool banner is run here the way CI runs it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

CI_SCRIPT = Path(__file__).resolve().parents[3] / ".ci" / "run"


def tools_banner() -> str:
    """The part of `.ci/run` before `make lint` and `make test`, with its `set -euo pipefail` line."""
    text = CI_SCRIPT.read_text()
    return text.split('echo "== make', 1)[0]


@pytest.mark.slow  # runs java and mvn ten times
def test_the_tool_banner_exits_zero_every_time() -> None:
    # `mvn -v | head -1` under pipefail failed in about a third of runs (head closed the pipe early), which
    # failed CI after one second. Ten runs in a row would have caught it with probability ~0.99.
    banner = tools_banner()
    assert "set -euo pipefail" in banner
    # CI's shell has no $JDK_JAVA_OPTIONS; the tests set one (tests/conftest.py), and `mvn -v` would then print the
    # JVM's "Picked up JDK_JAVA_OPTIONS" note as its first line.
    ci_environment = {name: value for name, value in os.environ.items() if name != "JDK_JAVA_OPTIONS"}
    for run in range(10):
        done = subprocess.run(
            ["bash", "-c", banner], capture_output=True, text=True, cwd=CI_SCRIPT.parents[1], env=ci_environment
        )
        assert done.returncode == 0, f"run {run}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        lines = done.stdout.splitlines()
        assert lines[0] == "== tools"
        assert lines[1].startswith("Python 3.")
        assert "openjdk" in lines[2].lower() or "java" in lines[2].lower()
        assert "Maven" in lines[3]


def test_ci_runs_the_linters_and_then_the_readmes_test_command() -> None:
    text = CI_SCRIPT.read_text()
    assert text.index("\nmake lint\n") < text.index("\nmake test\n")
    readme = (CI_SCRIPT.parents[1] / "README.md").read_text()
    assert "make test" in readme.split("## Quick start", 1)[1].split("##", 1)[0]
