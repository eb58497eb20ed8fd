"""The state file of a local Neo4j home (``HOME/neo4j-local.json``), read back and checked against the process.

The home's layout is in the package docstring (:mod:`graphmem.local_neo4j`).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphmem.local_neo4j.build import JAR_NAME
from graphmem.local_neo4j.process import _cmdline, _pid_alive

log = logging.getLogger(__name__)

LOG_FILE_NAME = "neo4j.log"
NEO4J_DIR_NAME = "neo4j"


@dataclass(frozen=True)
class LocalState:
    """A running local Neo4j, as recorded in the state file.

    pid : int, the launcher's JVM (also its process group and session id)
    uri : str, ``bolt://127.0.0.1:PORT``
    home : Path, the graphmem home that holds the state file and the log
    log_file : Path, the launcher's stdout and stderr
    started_at : str, ISO 8601 UTC time the server became ready
    port : int, the Bolt port actually bound (never 0)
    auth_enabled : bool, whether the ``neo4j`` user needs a password
    already_running : bool, True when :func:`start` found it running and started nothing (not stored)
    """

    pid: int
    uri: str
    home: Path
    log_file: Path
    started_at: str
    port: int
    auth_enabled: bool = False
    already_running: bool = False

    def to_json(self) -> str:
        """The state file's content (``already_running`` is not stored)."""
        return json.dumps({
            "pid": self.pid, "uri": self.uri, "home": str(self.home), "log_file": str(self.log_file),
            "started_at": self.started_at, "port": self.port, "auth_enabled": self.auth_enabled,
        }, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str) -> LocalState:
        """Parse a state file. Raises ValueError (or KeyError, TypeError) when it is not one."""
        data: Any = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return cls(pid=int(data["pid"]), uri=str(data["uri"]), home=Path(data["home"]),
                   log_file=Path(data["log_file"]), started_at=str(data["started_at"]),
                   port=int(data["port"]), auth_enabled=bool(data.get("auth_enabled", False)))


@dataclass(frozen=True)
class StopResult:
    """What :func:`stop` did.

    pid : int, the process that was stopped
    uri : str, where it listened
    seconds : float, from SIGTERM until the process was gone
    killed : bool, True when it ignored SIGTERM for the whole timeout and was killed with SIGKILL
    """

    pid: int
    uri: str
    seconds: float
    killed: bool


def state_file(home: Path) -> Path:
    """The state file of ``home`` (the same path as ``Settings.state_file``)."""
    from graphmem.settings import STATE_FILE_NAME  # here: `graphmem neo4j --help` never loads the settings

    return home / STATE_FILE_NAME


def _resolve(home: Path) -> Path:
    return home.expanduser().resolve()


def _is_launcher(pid: int, home: Path) -> bool:
    """Whether ``pid`` is alive and (where ``/proc`` tells) the launcher of ``home`` (not a recycled pid)."""
    if not _pid_alive(pid):
        return False
    cmdline = _cmdline(pid)
    return cmdline is None or (JAR_NAME in cmdline and str(home / NEO4J_DIR_NAME) in cmdline)


def status(home: Path) -> LocalState | None:
    """The local Neo4j running for ``home``, or None.

    A state file whose process is gone (or is not the launcher) is stale: it is removed and None is returned.
    """
    home = _resolve(home)
    path = state_file(home)
    try:
        state = LocalState.from_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as e:
        log.warning("removing unreadable state file %s (%s)", path, e)
        path.unlink(missing_ok=True)
        return None
    if not _is_launcher(state.pid, home):
        log.info("removing stale state file %s (pid %d is gone)", path, state.pid)
        path.unlink(missing_ok=True)
        return None
    return state
