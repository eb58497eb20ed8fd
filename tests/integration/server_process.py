"""A real ``graphmem serve`` in a subprocess on a free port, for the tests that drive the service over HTTP and MCP."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ENGINE_KEY = "test-engine-key-0123456789"


def free_port() -> int:
    """A TCP port nothing listens on now (on 127.0.0.1)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A running ``graphmem serve``: its base URL, engine key, process and log file."""

    url: str
    key: str | None
    process: subprocess.Popen[bytes]
    log: Path
    env: dict[str, str] = field(default_factory=dict)

    def client(self, credential: str | None = "engine", timeout: float = 60.0) -> httpx.Client:
        """An HTTP client with ``credential`` (the engine key by default, a player token, or None) as Bearer."""
        key = self.key if credential == "engine" else credential
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=timeout)

    def stop(self) -> None:
        """Stop the process (SIGTERM, then SIGKILL after 20 s)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def start_server(neo4j_uri: str, folder: Path, *, key: str | None = ENGINE_KEY, ready: bool = True,
                 timeout: float = 240.0, extra_env: dict[str, Any] | None = None, args: Sequence[str] = ()) -> Server:
    """Start ``graphmem serve`` against ``neo4j_uri`` with the engine key ``key`` (and the serve options ``args``,
    e.g. ``--host``); wait until /ready says 200 (or only /health when ``ready`` is False). Raises RuntimeError with
    the server's log when it does not come up."""
    port = free_port()
    log = folder / f"serve-{port}.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAPHMEM_", "NEO4J_"))}
    env.update({"NEO4J_URI": neo4j_uri, "NEO4J_USER": os.environ.get("NEO4J_USER", "neo4j"),
                "NEO4J_PASSWORD": os.environ.get("NEO4J_PASSWORD", "graphmem")})
    if os.environ.get("NEO4J_DATABASE"):
        env["NEO4J_DATABASE"] = os.environ["NEO4J_DATABASE"]
    if key:
        env["GRAPHMEM_ENGINE_KEY"] = key
    env.update({k: str(v) for k, v in (extra_env or {}).items()})
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "graphmem.cli", "serve", "--port", str(port), *args],
                                   stdout=out, stderr=subprocess.STDOUT, env=env, cwd=folder)
    server = Server(f"http://127.0.0.1:{port}", key, process, log, env)
    deadline = time.monotonic() + timeout
    path = "/ready" if ready else "/health"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"graphmem serve exited with {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(server.url + path, timeout=10).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    server.stop()
    raise RuntimeError(f"graphmem serve did not become ready in {timeout} s:\n{log.read_text()}")
