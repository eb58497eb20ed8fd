"""CPU time of processes from /proc (Linux): what the service benchmark charges to the server and to Neo4j.

Two clocks:

- :func:`cpu_seconds`: user + system time of every thread of a process and its descendants, from
  ``/proc/PID/stat`` (clock ticks, 10 ms here): for totals over many calls (400 writing recalls cost seconds);
- :class:`TaskClock`: the same processes' run time in nanoseconds from ``/proc/PID/task/TID/schedstat`` (the
  scheduler's own account of every thread): for one call at a time (a query of a millisecond), at ~1 ms of the
  caller's CPU per reading.

:func:`listening_pid` finds the process that listens on a local TCP port (Neo4j's Bolt port), through the socket's
inode in ``/proc/net/tcp`` and the file descriptors of the processes this user may read.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["TaskClock", "cpu_seconds", "descendants", "listening_pid"]

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat_fields(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()  # the fields after the command name (which may hold spaces)


def descendants(pid: int) -> list[int]:
    """``pid`` and every live process below it (``graphmem serve --workers N`` forks its workers)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat_fields(int(entry))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, ()))
    return out


def cpu_seconds(pids: Iterable[int]) -> float:
    """User + system CPU seconds of the processes ``pids`` (every thread of each), as /proc accounts them so far;
    a process gone counts 0."""
    total = 0
    for pid in pids:
        fields = _stat_fields(pid)
        if fields is not None:
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of proc(5))
    return total / TICK


class TaskClock:
    """Nanosecond CPU time of the threads of some processes (``/proc/PID/task/TID/schedstat``, first field: time
    spent on a CPU). ``seconds()`` sums every thread alive at the call; a thread that ended between two calls takes
    its time with it, so use it around short spans (one query), never over minutes."""

    def __init__(self, pids: Iterable[int]) -> None:
        self.pids = list(pids)

    def seconds(self) -> float:
        total = 0
        for pid in self.pids:
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tasks:
                try:
                    with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as f:
                        total += int(f.read().split(maxsplit=1)[0])
                except (OSError, ValueError, IndexError):
                    continue
        return total / 1e9


def listening_pid(port: int) -> int | None:
    """The pid of the process listening on TCP ``port`` (IPv4 or IPv6), or None when none this user can see."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if len(cols) > 9 and cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                inodes.add(f"socket:[{cols[9]}]")
    if not inodes:
        return None
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fds = os.listdir(f"/proc/{entry}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{entry}/fd/{fd}") in inodes:
                    return int(entry)
            except OSError:
                continue
    return None
