"""Every third-party package that graphmem/ imports is declared in pyproject.toml's ``[project] dependencies``: a
user who installs the wheel gets it, instead of an ImportError the first time a command reaches the import (as
``scipy`` was, imported by the clustering and installed only because scikit-learn needs it).

Every ``import`` and ``from ... import`` of every module counts, inside functions too (a lazy import fails just
the same); its top-level name is mapped to the distributions that provide it with
``importlib.metadata.packages_distributions()``. Standard-library modules and graphmem's own are skipped. Under
``if sys.version_info ...`` only the branch this interpreter takes is read (``tomllib`` on 3.11, ``tomli`` on 3.10).
"""

from __future__ import annotations

import ast
import operator
import re
import sys
from collections.abc import Iterator, Mapping
from functools import cache
from importlib.metadata import packages_distributions
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "graphmem"
COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
           ast.Eq: operator.eq, ast.NotEq: operator.ne}


def normalise(distribution: str) -> str:
    """A distribution name as PEP 503 compares them: ``typing_extensions`` and ``Typing-Extensions`` are one."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


@cache
def providers() -> Mapping[str, list[str]]:
    """Import name -> the installed distributions that provide it (one scan of the environment: ~0.2 s)."""
    return packages_distributions()


@cache
def declared() -> frozenset[str]:
    """The names in pyproject.toml's ``[project] dependencies`` (without versions, extras or markers)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = set()
    for requirement in project["dependencies"]:
        match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
        assert match, f"unreadable dependency {requirement!r}"
        names.add(normalise(match.group(1)))
    return frozenset(names)


def _version_branch(node: ast.If) -> list[ast.stmt] | None:
    """The statements this interpreter runs for ``if sys.version_info OP (a, b, ...)``; None for any other test."""
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in COMPARE
            and ast.unparse(test.left) == "sys.version_info"):
        return None
    try:
        version = ast.literal_eval(test.comparators[0])
    except ValueError:
        return None
    return node.body if COMPARE[type(test.ops[0])](sys.version_info, version) else node.orelse


def imports(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, top-level name) of every absolute import in ``tree``, anywhere in it."""
    if isinstance(tree, ast.If) and (branch := _version_branch(tree)) is not None:
        for statement in branch:
            yield from imports(statement)
        return
    if isinstance(tree, ast.Import):
        for alias in tree.names:
            yield tree.lineno, alias.name.split(".")[0]
    elif isinstance(tree, ast.ImportFrom) and tree.level == 0 and tree.module:
        yield tree.lineno, tree.module.split(".")[0]
    for child in ast.iter_child_nodes(tree):
        yield from imports(child)


def undeclared(source: str, where: str) -> list[str]:
    """One line per third-party import of ``source`` whose distribution pyproject.toml does not declare."""
    known = declared()
    problems = []
    for line, name in imports(ast.parse(source, where)):
        if name in sys.stdlib_module_names or name == "graphmem" or name == "__future__":
            continue
        distributions = providers().get(name, [name])  # not installed: assume the import name is the distribution's
        if not any(normalise(d) in known for d in distributions):
            problems.append(f"{where}:{line} imports {name} (distribution {' or '.join(sorted(set(distributions)))})")
    return problems


def test_every_import_of_graphmem_is_a_declared_dependency() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50, "graphmem's modules not found"
    problems = [p for path in modules
                for p in undeclared(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert problems == [], "add these to [project] dependencies in pyproject.toml:\n" + "\n".join(problems)


def test_the_check_sees_lazy_submodule_and_version_guarded_imports() -> None:
    source = """
import json, numpy.typing
from graphmem.model import Parameters
from . import sibling
def late():
    from sympy.core import S
    import yaml as y
if sys.version_info >= (3, 0):
    import requests
else:
    import never_on_python_2
"""
    assert [p.split(" (")[0] for p in undeclared(source, "m.py")] == [
        "m.py:6 imports sympy", "m.py:7 imports yaml", "m.py:9 imports requests"]
    assert undeclared("import sklearn\nfrom typing_extensions import LiteralString\n", "m.py") == []
