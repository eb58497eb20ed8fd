"""The architecture of graphmem/ holds: `lint-imports` (import-linter, configured in pyproject.toml) finds every
package importing only the layers below it and no import cycle among the modules of any package; no package and
its own modules import each other (a parent-child cycle, which import-linter does not look for); and the pure
model imports without the database driver or the numeric stack.

The same check is `make lint`'s `lint-imports`. The second test shows the contracts bite: the copy of graphmem/ in
which the store imports the service back (the kind of two-way dependency ingest <-> store once was) is refused.
"""

from __future__ import annotations

import ast
import functools
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


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def parent_child_cycles(root: Path) -> list[str]:
    """The packages under ``root``/graphmem whose ``__init__`` imports (directly, or through its other modules) a
    module of the package that imports the package itself back (``from graphmem.cli import settings_of`` in a
    module that ``graphmem/cli/__init__.py`` imports). Imports under ``if TYPE_CHECKING:`` do not count; imports
    inside functions do. One line per package: ``package <-> the modules importing it back``."""
    modules = {_module_name(p, root): p for p in sorted((root / "graphmem").rglob("*.py"))}
    packages = {_module_name(p, root) for p in (root / "graphmem").rglob("__init__.py")}

    @functools.cache
    def imports(name: str) -> frozenset[str]:
        tree = ast.parse(modules[name].read_text(encoding="utf-8"))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                       for stmt in node.body for n in ast.walk(stmt)}
        here = name if name in packages else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = here
                for _ in range(max(node.level - 1, 0)):
                    base = base.rpartition(".")[0]
                module = (f"{base}.{node.module}" if node.module else base) if node.level else node.module or ""
                found.update(f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module
                             for alias in node.names)
        return frozenset(found & modules.keys())

    cycles = []
    for package in sorted(packages):
        inside = {m for m in modules if m.startswith(package + ".")}
        reached: set[str] = set()
        todo = sorted(imports(package) & inside)
        while todo:
            module = todo.pop()
            if module not in reached:
                reached.add(module)
                todo.extend(imports(module) & inside)
        back = sorted(m for m in reached if package in imports(m))
        if back:
            cycles.append(f"{package} <-> {', '.join(back)}")
    return cycles


def test_no_package_and_its_own_modules_import_each_other() -> None:
    assert parent_child_cycles(ROOT) == []


def test_a_command_module_imported_by_the_cli_package_that_imports_it_back_is_a_cycle(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "graphmem", tmp_path / "graphmem", ignore=shutil.ignore_patterns("__pycache__"))
    cli = tmp_path / "graphmem" / "cli" / "__init__.py"
    cli.write_text(cli.read_text(encoding="utf-8") + "\n\nfrom graphmem.cli.init_cmd import init  # noqa: E402\n",
                   encoding="utf-8")
    assert parent_child_cycles(tmp_path) == ["graphmem.cli <-> graphmem.cli.init_cmd"]
