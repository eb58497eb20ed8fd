"""The launcher's OS process: whether a pid is alive, its command line, and stopping its process group.

POSIX only (process groups, SIGTERM, ``/proc`` where it exists).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
from pathlib import Path

from graphmem.errors import LocalNeo4jError

log = logging.getLogger(__name__)


def _pid_alive(pid: int) -> bool:
    """Whether ``pid`` is a live (not fully exited) process; reaps it if it is our exited child."""
    with contextlib.suppress(ChildProcessError, OSError):
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    if stat.rsplit(")", 1)[-1].split()[0] != "Z":
        return True
    # A zombie leader: the JVM's other threads may still be exiting (unmapping the heap), so it is gone only once
    # it can be reaped (our child) or once its last thread is gone (another process's child).
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        return reaped != pid
    except ChildProcessError:
        try:
            return len(os.listdir(f"/proc/{pid}/task")) > 1
        except OSError:
            return False


def _cmdline(pid: int) -> str | None:
    """The process's command line joined by spaces, or None where ``/proc`` cannot tell."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return raw.replace(b"\0", b" ").decode(errors="replace")


def _signal(pid: int, sig: signal.Signals) -> None:
    """Send ``sig`` to the process group led by ``pid`` (the launcher's own session), else to ``pid`` alone."""
    try:
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
    except PermissionError as e:
        raise LocalNeo4jError(f"not allowed to signal the local Neo4j (pid {pid}): started by another user?") from e


def _terminate(pid: int, timeout: float) -> bool:
    """SIGTERM the process group of ``pid``, SIGKILL it after ``timeout`` seconds. Returns True if killed."""
    _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _pid_alive(pid):
            return False
        time.sleep(0.1)
    log.warning("pid %d did not exit within %.0f s of SIGTERM; sending SIGKILL", pid, timeout)
    _signal(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while _pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return True
