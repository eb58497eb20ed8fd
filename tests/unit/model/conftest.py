"""The ``graphmem`` command as the model tests run it: in an empty folder, without the developer's configuration; and
the nine findings of docs/model.md, computed once per session (they take a few seconds)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from graphmem.cli import main, model_cmd
from graphmem.cli.model_cmd import co_witness_accounts
from graphmem.embedding import Embedder
from graphmem.model.findings import Accounts, Finding, run_findings
from graphmem.model.params import Parameters, default_parameters


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``run(*args)``: the click Result of ``graphmem ARGS``."""
    monkeypatch.chdir(tmp_path)  # no ./graphmem.toml of the developer's
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(main, list(args), env={"GRAPHMEM_CONFIG": None, "NEO4J_URI": None})
    return invoke


@pytest.fixture(scope="session")
def accounts(embedder: Embedder) -> tuple[Accounts, ...]:
    """The co-witness accounts of graphmem/model/co_witness.jsonl as graphmem stores them, embedded by the real
    shipped model (all-MiniLM-L6-v2)."""
    return co_witness_accounts(embedder, default_parameters())


_RUNS: dict[tuple[str, int, tuple[Accounts, ...]], tuple[Finding, ...]] = {}


def shared_run_findings(params: Parameters | None, seed: int, accounts: Sequence[Accounts]) -> tuple[Finding, ...]:
    """:func:`graphmem.model.findings.run_findings`, each distinct (parameters, seed, accounts) computed once per
    session (the findings are pure and seeded: a second run gives the same)."""
    key = (repr(params if params is not None else default_parameters()), seed, tuple(accounts))
    if key not in _RUNS:
        _RUNS[key] = run_findings(params, seed, accounts)
    return _RUNS[key]


@pytest.fixture(scope="session")
def findings(accounts: tuple[Accounts, ...]) -> dict[str, Finding]:
    """The nine findings with the shipped defaults, seed 0, by key."""
    return {f.key: f for f in shared_run_findings(None, 0, accounts)}


@pytest.fixture
def shared_findings_command(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., tuple[Finding, ...]]]:
    """``graphmem model findings`` computing each distinct run once per session (the real computation, shared)."""
    monkeypatch.setattr(model_cmd, "run_findings", shared_run_findings)
    yield shared_run_findings
