"""The project's own local Neo4j: Neo4j Community 5.26 embedded in a small JVM launcher, run in the background.

The launcher is the Maven project ``docker/neo4j-local/`` (one class, ``graphmem.LocalNeo4j``). In a checkout it
is built in place; from an installed wheel its sources (``graphmem/_neo4j_local``) are copied to a build directory
under the user's cache (``$XDG_CACHE_HOME/graphmem/neo4j-local``, else ``~/.cache/graphmem/neo4j-local``), because
site-packages may be read-only. Builds are cached: a stamp next to ``target/`` holds a hash of ``pom.xml`` and the
sources, and Maven runs again only when it changes.

Layout of a home directory ``HOME`` (``Settings.home`` by default)::

    HOME/neo4j-local.json   state file: pid, uri, home, log_file, started_at, port, auth_enabled
    HOME/neo4j.log          the launcher's stdout and stderr (appended, one header line per start)
    HOME/neo4j/             the Neo4j home: data/ (databases, transactions), logs/debug.log

Bolt listens on 127.0.0.1 only, so authentication is disabled unless a password is given. Needs Java 17+ and
Maven 3 on PATH (``$JAVA_HOME/bin/java`` wins over PATH). POSIX only (process groups, SIGTERM).

The package: :func:`start` and :func:`stop` (here), :mod:`.build` (the Maven build of the launcher), :mod:`.jvm`
(Java, JVM flags, heap and page cache), :mod:`.bolt` (the port check and the wait for Bolt), :mod:`.state` (the
state file, :func:`status`), :mod:`.process` (pids, process groups, signals), :mod:`.files` (lock files, log
tails). :func:`start` and :func:`stop` call the other modules through this package's namespace, so replacing one
of the names here (``local_neo4j.check_port_free``, ``local_neo4j.build_launcher``, ...) changes what they do.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import subprocess
import time
from dataclasses import replace
from pathlib import Path

from graphmem.errors import LocalNeo4jError
from graphmem.local_neo4j.bolt import (
    DEFAULT_PORT,
    FAILED_MARKER,
    HOST,
    LOG_TAIL_LINES,
    READY_MARKER,
    _wait_ready,
    check_port_free,
    port_in_use_message,
)
from graphmem.local_neo4j.build import (
    JAR_NAME,
    STAMP_NAME,
    build_launcher,
    checkout_source,
    default_build_dir,
    find_maven,
    packaged_source,
    source_digest,
)
from graphmem.local_neo4j.files import _file_lock
from graphmem.local_neo4j.jvm import (
    DEFAULT_HEAP,
    DEFAULT_PAGE_CACHE,
    HEAP_ENV,
    JVM_FLAGS,
    MIN_JAVA,
    PAGE_CACHE_ENV,
    _heap,
    find_java,
    launcher_command,
)
from graphmem.local_neo4j.process import _terminate
from graphmem.local_neo4j.state import LOG_FILE_NAME, NEO4J_DIR_NAME, LocalState, StopResult, _resolve, state_file, status

__all__ = ["DEFAULT_HEAP", "DEFAULT_PAGE_CACHE", "DEFAULT_PORT", "DEFAULT_START_TIMEOUT", "DEFAULT_STOP_TIMEOUT",
           "FAILED_MARKER", "HEAP_ENV", "HOST", "JAR_NAME", "JVM_FLAGS", "LOG_FILE_NAME", "LOG_TAIL_LINES", "MIN_JAVA",
           "NEO4J_DIR_NAME", "PAGE_CACHE_ENV", "PASSWORD_ENV", "READY_MARKER", "STAMP_NAME", "LocalState", "StopResult",
           "build_launcher", "check_port_free", "checkout_source", "default_build_dir", "find_java", "find_maven",
           "launcher_command", "packaged_source", "port_in_use_message", "source_digest", "start", "state_file",
           "status", "stop"]

log = logging.getLogger(__name__)

DEFAULT_START_TIMEOUT = 120.0
DEFAULT_STOP_TIMEOUT = 60.0
PASSWORD_ENV = "GRAPHMEM_NEO4J_AUTH_PASSWORD"


def start(home: Path, port: int = DEFAULT_PORT, timeout: float = DEFAULT_START_TIMEOUT, *,
          auth_password: str | None = None) -> LocalState:
    """Start the local Neo4j for ``home`` in the background, or return the one already running there.

    home : the graphmem home (created if missing); see the module docstring for its layout
    port : int in [0, 65535], Bolt port on 127.0.0.1; 0 lets the server pick a free port
    timeout : float, seconds to wait after the JVM starts until Bolt answers (a build before it is not counted)
    auth_password : enable authentication with this password for the ``neo4j`` user (at least 8 characters);
        None disables authentication (Bolt listens on loopback only). Passed to the JVM in its environment.

    Builds the launcher if needed (:func:`build_launcher`), starts the JVM in its own session (stdout and stderr
    appended to ``home/neo4j.log``), waits for its ready line and a Bolt handshake (``verify_connectivity``), then
    writes the state file so that later commands connect there when NEO4J_URI is not set.
    Returns the state; ``already_running`` is True (and nothing was started) when one was running already.
    Raises LocalNeo4jError when Java (17+) or Maven is missing, the build fails, the port is in use, the JVM
    exits early, or Bolt does not answer within ``timeout`` (the JVM is stopped then; nothing is left running).
    Raises ConfigError for a malformed ``$GRAPHMEM_NEO4J_HEAP``.
    """
    if not 0 <= port <= 65535:
        raise LocalNeo4jError(f"port must be in [0, 65535], got {port}")
    home = _resolve(home)
    home.mkdir(parents=True, exist_ok=True)
    with _file_lock(home / ".neo4j-local.lock"):
        running = status(home)
        if running is not None:
            log.info("local Neo4j already running at %s (pid %d)", running.uri, running.pid)
            return replace(running, already_running=True)
        if port != 0:
            check_port_free(port)
        heap = _heap()
        java, _ = find_java()
        jar = build_launcher()
        neo4j_home = home / NEO4J_DIR_NAME
        log_file = home / LOG_FILE_NAME
        command = launcher_command(java, jar, neo4j_home, port, heap)
        env = dict(os.environ)
        env.pop(PASSWORD_ENV, None)
        if auth_password:
            env[PASSWORD_ENV] = auth_password
        with log_file.open("ab") as out:
            out.write(f"=== graphmem neo4j start {dt.datetime.now(dt.timezone.utc).isoformat()} "
                      f"port={port} ===\n".encode())
            out.flush()
            offset = out.tell()
            log.info("starting the local Neo4j: %s", " ".join(command))
            try:
                proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                        cwd=home, env=env, start_new_session=True)
            except OSError as e:
                raise LocalNeo4jError(f"cannot run {java}: {e}") from e
        began = time.monotonic()
        auth = ("neo4j", auth_password) if auth_password else None
        try:
            uri = _wait_ready(proc, log_file, offset, port, timeout, auth)
        except BaseException:
            _terminate(proc.pid, 30)
            proc.poll()
            raise
        log.info("local Neo4j ready at %s after %.1f s (pid %d)", uri, time.monotonic() - began, proc.pid)
        state = LocalState(pid=proc.pid, uri=uri, home=home, log_file=log_file,
                           started_at=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                           port=int(uri.rsplit(":", 1)[1]), auth_enabled=auth is not None)
        tmp = state_file(home).with_suffix(".json.tmp")
        tmp.write_text(state.to_json(), encoding="utf-8")
        os.replace(tmp, state_file(home))
        return state


def stop(home: Path, timeout: float = DEFAULT_STOP_TIMEOUT) -> StopResult | None:
    """Stop the local Neo4j of ``home``; None when none was running (a stale state file is removed).

    Sends SIGTERM to the launcher's process group (its shutdown hook checkpoints and closes the databases), waits
    up to ``timeout`` seconds, then SIGKILLs it (``killed`` in the result says so; the next start then runs
    recovery). Removes the state file. No process of the launcher is left behind.
    """
    home = _resolve(home)
    with _file_lock(home / ".neo4j-local.lock"):
        state = status(home)
        if state is None:
            return None
        began = time.monotonic()
        killed = _terminate(state.pid, timeout)
        seconds = time.monotonic() - began
        state_file(home).unlink(missing_ok=True)
        if killed:
            log.warning("local Neo4j (pid %d) was killed after %.0f s without a clean shutdown", state.pid, timeout)
        else:
            log.info("local Neo4j (pid %d) stopped in %.1f s", state.pid, seconds)
        return StopResult(pid=state.pid, uri=state.uri, seconds=seconds, killed=killed)
