"""The Bolt listener: checking the port before a start, and waiting for the started launcher to answer on it.

The launcher announces itself on stdout (appended to ``HOME/neo4j.log``) with one line,
``GRAPHMEM_NEO4J_READY bolt://127.0.0.1:PORT`` (:data:`READY_MARKER`), or ``GRAPHMEM_NEO4J_FAILED ...``.
Bolt listens on 127.0.0.1 only.
"""

from __future__ import annotations

import errno
import logging
import re
import socket
import subprocess
import time
from pathlib import Path

from graphmem.errors import LocalNeo4jError
from graphmem.local_neo4j.files import _read_from, _tail

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
DEFAULT_PORT = 7687
READY_MARKER = "GRAPHMEM_NEO4J_READY"
FAILED_MARKER = "GRAPHMEM_NEO4J_FAILED"
LOG_TAIL_LINES = 20

_PORT_IN_USE_SIGNS = ("port-in-use", "Address already in use", "PortBindException")


def port_in_use_message(port: int) -> str:
    """The message for a Bolt port that another process holds."""
    return (f"port {port} on {HOST} is already in use (another Neo4j?): stop whatever listens there, or choose "
            f"another port with --port N (0 picks a free one)")


def check_port_free(port: int) -> None:
    """Raise LocalNeo4jError when something listens on ``127.0.0.1:port`` (port in [1, 65535])."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # ignore TIME_WAIT leftovers of a stop
        try:
            probe.bind((HOST, port))
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise LocalNeo4jError(port_in_use_message(port)) from e
            if e.errno == errno.EACCES:
                raise LocalNeo4jError(f"not allowed to listen on {HOST}:{port} (ports below 1024 need root); "
                                      "choose another with --port N") from e
            raise LocalNeo4jError(f"cannot bind {HOST}:{port}: {e.strerror}") from e


def _bolt_answers(uri: str, auth: tuple[str, str] | None) -> bool:
    import neo4j
    from neo4j.exceptions import DriverError, Neo4jError

    try:
        with neo4j.GraphDatabase.driver(uri, auth=auth, connection_timeout=5.0) as driver:
            driver.verify_connectivity()
        return True
    except (DriverError, Neo4jError, OSError) as e:
        log.debug("Bolt at %s not answering yet: %s", uri, e)
        return False


def _wait_ready(proc: subprocess.Popen[bytes], log_file: Path, offset: int, port: int, timeout: float,
                auth: tuple[str, str] | None) -> str:
    """Wait until the launcher prints its ready line and Bolt answers; return the URI. Raises LocalNeo4jError."""
    deadline = time.monotonic() + timeout
    uri: str | None = None
    while time.monotonic() < deadline:
        text = _read_from(log_file, offset)
        code = proc.poll()
        if code is not None:
            tail = _tail(text, LOG_TAIL_LINES)
            if any(sign in text for sign in _PORT_IN_USE_SIGNS):
                raise LocalNeo4jError(f"{port_in_use_message(port)}\nlast lines of {log_file}:\n{tail}")
            raise LocalNeo4jError(
                f"the local Neo4j exited early with code {code}; last lines of {log_file}:\n{tail}")
        if uri is None:
            match = re.search(rf"^{READY_MARKER} (bolt://\S+)", text, re.MULTILINE)
            uri = match.group(1) if match else None
        if uri is not None and _bolt_answers(uri, auth):
            return uri
        time.sleep(0.2)
    raise LocalNeo4jError(
        f"the local Neo4j did not answer on Bolt within {timeout:g} s (stopped it; raise --timeout on a slow "
        f"machine); last lines of {log_file}:\n{_tail(_read_from(log_file, offset), LOG_TAIL_LINES)}")
