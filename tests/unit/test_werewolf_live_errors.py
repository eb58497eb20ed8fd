"""examples/werewolf-arena/werewolf_live.py fails with one line and an exit code of one meaning (its docstring):
2 for a bad ``--engine`` (it was a traceback, exit 1: the code of a boundary violation), 4 when graphmem does not
answer at ``--url``. The whole live game is tests/integration/test_werewolf_live.py (it needs the engine's checkout)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIVE = ROOT / "examples" / "werewolf-arena" / "werewolf_live.py"


def live(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(LIVE), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_an_engine_path_that_is_no_checkout_is_a_usage_error(tmp_path: Path) -> None:
    run = live("--engine", str(tmp_path / "nowhere"), "--url", "http://127.0.0.1:9")
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert f"--engine {tmp_path / 'nowhere'}: cannot import the engine: " in run.stderr
    assert "no werewolf/game.py (a checkout of google/werewolf_arena)" in run.stderr


def test_an_engine_that_needs_a_missing_module_names_it(tmp_path: Path) -> None:
    package = tmp_path / "engine" / "werewolf"
    package.mkdir(parents=True)
    for name in ("__init__", "config", "game", "logging"):
        (package / f"{name}.py").write_text("", encoding="utf-8")
    (package / "model.py").write_text("import marko_not_installed\n", encoding="utf-8")
    run = live("--engine", str(tmp_path / "engine"))
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "No module named 'marko_not_installed' (pip install marko_not_installed)" in run.stderr


def test_graphmem_not_answering_is_exit_4_naming_the_url(tmp_path: Path) -> None:
    package = tmp_path / "engine" / "werewolf"  # an engine that imports: graphmem is asked before the game starts
    package.mkdir(parents=True)
    for name in ("__init__", "config", "game", "logging", "model"):
        (package / f"{name}.py").write_text("", encoding="utf-8")
    with socket.socket() as closed:  # a free port nobody listens on
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}"
    run = live("--engine", str(tmp_path / "engine"), "--url", url)
    assert run.returncode == 4 and "Traceback" not in run.stderr, run.stderr
    assert f"graphmem failed: GET /health: no answer from graphmem at {url} (ConnectError" in run.stderr
    assert "is `graphmem serve` running there (--url, $GRAPHMEM_URL)?" in run.stderr
