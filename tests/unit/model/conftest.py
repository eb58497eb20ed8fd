"""The ``graphmem`` command as the model tests run it: in an empty folder, without the developer's configuration."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from graphmem.cli import main


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``run(*args)``: the click Result of ``graphmem ARGS``."""
    monkeypatch.chdir(tmp_path)  # no ./graphmem.toml of the developer's
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(main, list(args), env={"GRAPHMEM_CONFIG": None, "NEO4J_URI": None})
    return invoke
