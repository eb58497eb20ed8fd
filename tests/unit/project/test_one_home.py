"""One concept, one name, one home (issue 42): the names that drifted into two modules once are held to one.

- Every public error class is defined in graphmem/errors.py, so the whole family (its HTTP statuses and kinds) is
  read in one module: a class anywhere else in graphmem/ that derives from one of them fails here.
- No public constant (an UPPER_CASE module-level name, a TypeVar aside) is defined in two modules of graphmem/
  outside the importers (each importer names its own NAME, LICENCE and source): a second definition is a copy that
  drifts, and two things under one name are two concepts to tell apart by name.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "graphmem"


@functools.cache
def _modules() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(PACKAGE.rglob("*.py"))]


def _base_names(node: ast.ClassDef) -> list[str]:
    names = []
    for base in node.bases:
        if isinstance(base, ast.Name):
            names.append(base.id)
        elif isinstance(base, ast.Attribute):
            names.append(base.attr)
    return names


def test_every_public_error_class_is_defined_in_graphmem_errors() -> None:
    errors = ast.parse((PACKAGE / "errors.py").read_text(encoding="utf-8"))
    family = {n.name for n in errors.body if isinstance(n, ast.ClassDef)}
    assert {"GraphmemError", "UsageProblem", "MalformedRequest", "RecallConflict", "QueryFailed"} <= family
    elsewhere = [f"{path.relative_to(ROOT)}: {node.name}({', '.join(_base_names(node))})"
                 for path, module in _modules() if path != PACKAGE / "errors.py"
                 for node in ast.walk(module)
                 if isinstance(node, ast.ClassDef) and family & set(_base_names(node))]
    assert elsewhere == [], "define public errors in graphmem/errors.py"


def test_no_public_constant_is_defined_in_two_modules() -> None:
    homes: dict[str, list[str]] = defaultdict(list)
    for path, module in _modules():
        if "importers" in path.relative_to(PACKAGE).parts:
            continue
        for node in module.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                if isinstance(node, ast.AnnAssign) else []
            for target in targets:
                value = getattr(node, "value", None)
                typevar = isinstance(value, ast.Call) and getattr(value.func, "id", "") == "TypeVar"
                if isinstance(target, ast.Name) and target.id.isupper() and not target.id.startswith("_") \
                        and not typevar:
                    homes[target.id].append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in homes.items() if len(paths) > 1} == {}


LAYER_TYPES = {"Count", "Text", "PlayerName"}
"""Type names each layer defines for itself on purpose: the log format's are strict (a log's JSON types as
written), the HTTP API's lenient with the Unicode check of a request body; ``PlayerName`` is a validated name in a
log and the route's checked ``{player}`` in the server."""


def test_no_public_class_or_type_is_defined_in_two_modules() -> None:
    homes: dict[str, list[str]] = defaultdict(list)
    for path, module in _modules():
        if "importers" in path.relative_to(PACKAGE).parts:
            continue
        for node in module.body:
            names = [node.name] if isinstance(node, ast.ClassDef) else \
                [t.id for t in node.targets if isinstance(t, ast.Name)] if isinstance(node, ast.Assign) else []
            for name in names:
                if name[:1].isupper() and not name.isupper() and name not in LAYER_TYPES:
                    homes[name].append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in homes.items() if len(paths) > 1} == {}
