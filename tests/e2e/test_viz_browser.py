"""The interactive who-told-whom page in a real headless Chromium (Debian's ``chromium``; ``make browser``).

Chromium is driven over the Chrome DevTools Protocol through a pipe (``--remote-debugging-pipe``: commands on the
child's fd 3, replies on fd 4, NUL-separated JSON), so no extra package and no port are needed. The tests check
that the page drew one SVG group per player, logged no error (``window.__errors``, console errors and uncaught
exceptions), made no network request (every request Chromium saw is the page's own file:// URL), reacts to hover,
click and the day filter, and they save a screenshot beside the test's artefacts.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import CliRunner
from PIL import Image

from graphmem.cli import main
from graphmem.viz.html import render_html
from graphmem.viz.told import build_told_graph

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("GRAPHMEM_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--mute-audio", "--remote-debugging-pipe"]


class Browser:
    """A headless Chromium and one page, spoken to over the DevTools pipe. ``events`` keeps every event seen."""

    def __init__(self, profile: Path, timeout: float = 30.0) -> None:
        if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
            pytest.fail(f"no Chromium at {CHROMIUM}: install it with `make browser` (Debian package chromium)")
        self.timeout = timeout
        commands_r, self._commands_w = os.pipe()
        self._replies_r, replies_w = os.pipe()

        def child_fds() -> None:  # runs in the child: its fd 3 reads commands, fd 4 writes replies
            a, b = os.dup(commands_r), os.dup(replies_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                        pass_fds=(3, 4), preexec_fn=child_fds, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(commands_r)
        os.close(replies_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.send(f"{domain}.enable", session=True)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=True)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._replies_r], [], [], left)[0]:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._replies_r, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed the DevTools pipe: " + self.stderr())
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        parsed: dict[str, Any] = json.loads(message)
        return parsed

    def send(self, method: str, params: dict[str, Any] | None = None, session: bool = False) -> dict[str, Any]:
        """Send one command and return its result (events that arrive meanwhile go to ``events``)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self._commands_w, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_for(self, method: str) -> None:
        """Read events until ``method`` arrives."""
        deadline = time.monotonic() + self.timeout
        while not any(e.get("method") == method for e in self.events):
            self.events.append(self._read(deadline))

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (JSON-serialisable values only)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str) -> None:
        """Navigate and wait for the load event and for the page's data-ready mark."""
        self.send("Page.navigate", {"url": url}, session=True)
        self.wait_for("Page.loadEventFired")
        deadline = time.monotonic() + self.timeout
        while self.evaluate("document.documentElement.getAttribute('data-ready')") != "1":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} never set data-ready; errors: {self.evaluate('window.__errors')}")
            time.sleep(0.05)

    def mouse(self, kind: str, x: float, y: float, held: bool = False) -> None:
        """A mouse event at viewport point (x, y): kind mouseMoved, mousePressed or mouseReleased; ``held``: the
        left button is down during a move (a drag)."""
        params: dict[str, Any] = {"type": kind, "x": x, "y": y}
        if kind != "mouseMoved":
            params.update(button="left", clickCount=1, buttons=1 if kind == "mousePressed" else 0)
        elif held:
            params.update(button="left", buttons=1)
        self.send("Input.dispatchMouseEvent", params, session=True)

    def screenshot(self, path: Path) -> None:
        """Save a PNG of the viewport."""
        data = self.send("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        path.write_bytes(base64.b64decode(data))

    def errors(self) -> list[str]:
        """Uncaught exceptions, console errors and error log entries seen so far."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(json.dumps(params.get("exceptionDetails", {}))[:500])
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(json.dumps(params.get("args", []))[:500])
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                found.append(str(params["entry"].get("text")))
        return found

    def requests(self) -> list[str]:
        """The URL of every network request the page made."""
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]

    def stderr(self) -> str:
        if self.process.poll() is None or self.process.stderr is None:
            return ""
        return self.process.stderr.read().decode(errors="replace")[-2000:]

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (EOFError, TimeoutError, RuntimeError, OSError):
            pass
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)
        for fd in (self._commands_w, self._replies_r):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.process.stderr is not None:
            self.process.stderr.close()


@pytest.fixture
def browser() -> Iterator[Browser]:
    with tempfile.TemporaryDirectory(prefix="graphmem-chromium-") as profile:
        chromium = Browser(Path(profile))
        try:
            yield chromium
        finally:
            chromium.close()


def assert_clean_drawing(browser: Browser, page: Path, players: int, screenshot: Path) -> None:
    """One group per player, no error, no request but the page itself, and a real screenshot."""
    assert browser.evaluate("document.querySelectorAll('svg#told g[data-player]').length") == players
    assert browser.evaluate("window.__errors") == []
    assert browser.errors() == []
    assert browser.requests() == [page.as_uri()], "the page fetched something besides itself"
    browser.screenshot(screenshot)
    with Image.open(screenshot) as image:
        assert image.format == "PNG" and image.size == (1280, 900)
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 100, "a blank screenshot"


PLAYERS = [{"player": n, "role": r, "profile": "balanced", "status": s, "eliminated_day": d}
           for n, r, s, d in (("Ann", "traitor", "alive", None), ("Bob", "faithful", "murdered", 2),
                              ("Cat", "faithful", "banished", 1), ("Dan", "faithful", "alive", None),
                              ("Eve", "traitor", "alive", None), ("Fay", "faithful", "alive", None))]
TOLD = [{"teller": a, "listener": b, "day": d, "channel": c, "messages": n}
        for a, b, d, c, n in (("Ann", "Bob", 1, "private", 3), ("Ann", "Bob", 2, "private", 2),
                              ("Bob", "Cat", 1, "roundtable", 1), ("Bob", "Dan", 1, "roundtable", 1),
                              ("Ann", "Eve", 2, "traitors", 4), ("Dan", "Ann", 2, "public", 1))]


def test_the_page_draws_every_player_offline_and_reacts_to_the_mouse(browser: Browser, tmp_path: Path) -> None:
    page = tmp_path / "told.html"
    page.write_text(render_html(build_told_graph("g-browser", PLAYERS, TOLD)), encoding="utf-8")
    browser.open(page.as_uri())
    assert_clean_drawing(browser, page, 6, tmp_path / "told.png")
    assert browser.evaluate("document.querySelectorAll('svg#told path.edge').length") == 5
    assert browser.evaluate("document.querySelectorAll('[data-player=\"Bob\"] .cross').length") == 1
    assert browser.evaluate("document.querySelector('[data-player=\"Cat\"] .shape').tagName") == "rect"
    # hover a player: the tooltip tells who they are
    box = browser.evaluate("(() => { const r = document.querySelector('[data-player=\"Ann\"] .shape')"
                           ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    browser.mouse("mouseMoved", *box)
    tip = browser.evaluate("[getComputedStyle(document.getElementById('tooltip')).display, "
                           "document.getElementById('tooltip').textContent]")
    assert tip[0] == "block" and "Ann" in tip[1] and "traitor" in tip[1] and "told 9" in tip[1]
    # click: Ann is selected, players she did not talk to are dimmed
    browser.mouse("mousePressed", *box)
    browser.mouse("mouseReleased", *box)
    assert browser.evaluate("document.querySelector('[data-player=\"Ann\"]').classList.contains('selected')")
    assert browser.evaluate("[...document.querySelectorAll('g.player.dim')].map(g => g.dataset.player).sort()") == \
        ["Cat", "Fay"]
    # the day filter hides the edges of other days
    shown = "[...document.querySelectorAll('path.edge')].filter(p => p.style.display !== 'none').length"
    assert browser.evaluate(shown) == 5
    browser.evaluate("(() => { const s = document.getElementById('day'); s.value = '1';"
                     " s.dispatchEvent(new Event('change')); })()")
    assert browser.evaluate(shown) == 3
    # dragging moves a player (and its edges) without selecting it
    where = "document.querySelector('[data-player=\"Dan\"]').getAttribute('transform')"
    before = browser.evaluate(where)
    dan = browser.evaluate("(() => { const r = document.querySelector('[data-player=\"Dan\"] .shape')"
                           ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    browser.mouse("mousePressed", *dan)
    for step in range(1, 6):
        browser.mouse("mouseMoved", dan[0] + 30 * step, dan[1] - 10 * step, held=True)
    browser.mouse("mouseReleased", dan[0] + 150, dan[1] - 50)
    assert browser.evaluate(where) != before
    assert not browser.evaluate("document.querySelector('[data-player=\"Dan\"]').classList.contains('selected')")
    assert browser.evaluate("window.__errors") == [] and browser.errors() == []


@pytest.mark.neo4j
def test_a_real_game_page_draws_one_node_per_player(browser: Browser, tmp_path: Path, neo4j_uri: str,
                                                    driver: neo4j.Driver, real_games: Any) -> None:
    game = sorted(g.game for g in real_games.per_game)[0]
    players = driver.execute_query("MATCH (p:Player {game: $game}) RETURN count(p)", game=game).records[0][0]
    page = tmp_path / "told.html"
    result = CliRunner().invoke(main, ["--uri", neo4j_uri, "viz", "told", "--game", game, "--out", str(page)])
    assert result.exit_code == 0, result.output
    browser.open(page.as_uri())
    assert_clean_drawing(browser, page, players, tmp_path / "told.png")
    edges = browser.evaluate("document.querySelectorAll('svg#told path.edge').length")
    told_pairs = driver.execute_query(
        "MATCH (a:Player {game: $game})-[t:TOLD]->(b) RETURN count(DISTINCT [a.name, b.name, t.channel])",
        game=game).records[0][0]
    assert edges == told_pairs > 0
