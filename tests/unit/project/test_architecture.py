"""The architecture of graphmem/ holds: `lint-imports` (import-linter, configured in pyproject.toml) finds every
package importing only the layers below it and no import cycle among the modules of any package; and the pure
model imports without the database driver or the numeric stack.

The same check is `make lint`'s `lint-imports`. The second test shows the contracts bite: the copy of graphmem/ in
which the store imports the service back (the kind of two-way dependency ingest <-> store once was) is refused.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """Run ``lint-imports`` on the graphmem package under ``root`` with ``root``'s pyproject.toml."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    code = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True))"
    return subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)


def test_the_import_contracts_hold() -> None:
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 kept, 0 broken" in run.stdout


def test_a_store_module_that_imports_the_service_breaks_the_layers(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "graphmem", tmp_path / "graphmem", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    keys = tmp_path / "graphmem" / "store" / "keys.py"
    keys.write_text(keys.read_text(encoding="utf-8") + "\n\ndef _late() -> object:\n"
                    "    from graphmem.service import MemoryService\n\n    return MemoryService\n", encoding="utf-8")
    run = lint_imports(tmp_path)
    assert run.returncode != 0
    assert "graphmem.store.keys -> graphmem.service" in run.stdout
    # the layers, the cycle store -> service -> store, and the claims (which use store.keys) reaching the driver
    assert "0 kept, 3 broken" in run.stdout


def test_the_pure_model_loads_neither_the_driver_nor_numpy() -> None:
    code = ("import sys, graphmem.model, graphmem.errors, graphmem.settings; "
            "print(sorted(m for m in ('neo4j', 'numpy', 'scipy', 'torch', 'sklearn', 'pydantic') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
