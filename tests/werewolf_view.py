"""What the google/werewolf_arena engine showed each player: ``examples/werewolf-arena/werewolf_view.py`` (its one
home, which the live example checks its recalls against too), loaded for the tests."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

VIEW = Path(__file__).resolve().parents[1] / "examples" / "werewolf-arena" / "werewolf_view.py"

_spec = importlib.util.spec_from_file_location("werewolf_view", VIEW)
assert _spec is not None and _spec.loader is not None
_view = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_view)

observed: Callable[[str, str], str] = _view.observed
shown: Callable[[Path], dict[str, set[str]]] = _view.shown
mismatches: Callable[[dict[str, set[str]], dict[str, set[str]]], dict[str, dict[str, list[str]]]] = _view.mismatches
