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
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import hashlib
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from graphmem.errors import ConfigError, LocalNeo4jError
from graphmem.settings import STATE_FILE_NAME

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
DEFAULT_PORT = 7687
DEFAULT_START_TIMEOUT = 120.0
DEFAULT_STOP_TIMEOUT = 60.0
MIN_JAVA = 17
JAR_NAME = "graphmem-neo4j-local.jar"
LOG_FILE_NAME = "neo4j.log"
NEO4J_DIR_NAME = "neo4j"
READY_MARKER = "GRAPHMEM_NEO4J_READY"
FAILED_MARKER = "GRAPHMEM_NEO4J_FAILED"
STAMP_NAME = ".graphmem-build-stamp"
HEAP_ENV = "GRAPHMEM_NEO4J_HEAP"
DEFAULT_HEAP = "1g"
PAGE_CACHE_ENV = "GRAPHMEM_NEO4J_PAGECACHE"
DEFAULT_PAGE_CACHE = "256m"  # holds the store of ~100k memories with their 384-float embeddings
PASSWORD_ENV = "GRAPHMEM_NEO4J_AUTH_PASSWORD"
LOG_TAIL_LINES = 20

#: JVM flags of the launcher (the heap comes on top, from ``$GRAPHMEM_NEO4J_HEAP``). The module flags are the ones
#: Neo4j 5.26 ships in its ``neo4j.conf`` (``server.jvm.additional``): without ``java.nio`` opened, the vector
#: index cannot use direct buffers. The rest are Neo4j's defaults that matter outside a server package.
JVM_FLAGS: tuple[str, ...] = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-XX:+ExitOnOutOfMemoryError",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
)

_PORT_IN_USE_SIGNS = ("port-in-use", "Address already in use", "PortBindException")


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


# --- locating and building the launcher -------------------------------------------------------------------------


def checkout_source() -> Path:
    """``docker/neo4j-local`` of the repository this module was imported from (it may not exist)."""
    return Path(__file__).resolve().parent.parent / "docker" / "neo4j-local"


def packaged_source() -> Path:
    """``graphmem/_neo4j_local`` of an installed wheel (it may not exist)."""
    return Path(__file__).resolve().parent / "_neo4j_local"


def default_build_dir() -> Path:
    """Where a wheel's launcher is built: ``$XDG_CACHE_HOME/graphmem/neo4j-local`` or ``~/.cache/...``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "graphmem" / "neo4j-local"


def source_digest(source: Path) -> str:
    """SHA-256 (hex) over ``pom.xml`` and every file under ``src/`` (relative paths and bytes)."""
    h = hashlib.sha256()
    files = [source / "pom.xml", *sorted(p for p in (source / "src").rglob("*") if p.is_file())]
    for path in files:
        h.update(path.relative_to(source).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def find_java() -> tuple[str, int]:
    """The ``java`` executable and its major version.

    ``$JAVA_HOME/bin/java`` when it exists, else ``java`` on PATH.
    Raises LocalNeo4jError when there is none, it does not run, or it is older than Java 17.
    """
    java_home = os.environ.get("JAVA_HOME")
    candidate = Path(java_home) / "bin" / "java" if java_home else None
    java = str(candidate) if candidate is not None and candidate.is_file() else shutil.which("java")
    if java is None:
        raise LocalNeo4jError(
            f"Java {MIN_JAVA}+ is needed to run the local Neo4j, but no `java` is on PATH (nor in $JAVA_HOME/bin). "
            "Install a JDK 17 or newer (e.g. `apt install openjdk-17-jdk-headless`), or point NEO4J_URI at "
            "another Neo4j.")
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise LocalNeo4jError(f"`{java} -version` failed: {e}") from e
    text = out.stderr + out.stdout
    match = re.search(r'version "(\d+)(?:\.(\d+))?', text)
    if match is None:
        raise LocalNeo4jError(f"cannot tell the version of {java}: `java -version` printed {text.strip()!r}")
    major = int(match.group(1))
    if major == 1 and match.group(2):  # "1.8.0_292" is Java 8
        major = int(match.group(2))
    if major < MIN_JAVA:
        raise LocalNeo4jError(
            f"the local Neo4j needs Java {MIN_JAVA} or newer, but {java} is Java {major}. Install a JDK 17+ and "
            "put it first on PATH or set JAVA_HOME.")
    return java, major


def find_maven() -> str:
    """The ``mvn`` executable on PATH. Raises LocalNeo4jError when there is none."""
    mvn = shutil.which("mvn")
    if mvn is None:
        raise LocalNeo4jError(
            "Maven (`mvn`) is needed to build the local Neo4j launcher, but it is not on PATH. Install Maven 3 "
            "(e.g. `apt install maven`), or point NEO4J_URI at another Neo4j.")
    return mvn


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created if missing) for the duration of the block."""
    import fcntl  # POSIX only; imported here so that `graphmem --help` still works elsewhere
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _tail(text: str, lines: int) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def build_launcher(source: Path | None = None, build_dir: Path | None = None, *, force: bool = False) -> Path:
    """Build the launcher with Maven if its sources changed since the last build, and return its jar.

    source : the Maven project (``pom.xml`` + ``src/``); default: the checkout's ``docker/neo4j-local``, else the
        wheel's ``graphmem/_neo4j_local``
    build_dir : where to build; None builds in place (the checkout's default), a directory gets a copy of
        ``source`` first (the default for a wheel: :func:`default_build_dir`)
    force : run Maven even when the stamp says the build is current

    Returns ``target/graphmem-neo4j-local.jar``; its manifest puts ``target/lib/*.jar`` on the class path.
    A cold build downloads Neo4j's jars (~125 MB) into ``~/.m2`` once; later builds take seconds. Concurrent
    callers are serialised by a file lock.
    Raises LocalNeo4jError when the sources are missing, Java or Maven is missing, or Maven fails (with the tail
    of its output).
    """
    if source is None:
        if (checkout_source() / "pom.xml").is_file():
            source = checkout_source()
        elif (packaged_source() / "pom.xml").is_file():
            source, build_dir = packaged_source(), build_dir or default_build_dir()
        else:
            raise LocalNeo4jError(
                f"the local Neo4j launcher sources are missing: neither {checkout_source()} nor "
                f"{packaged_source()} holds a pom.xml (a broken installation?)")
    elif not (source / "pom.xml").is_file():
        raise LocalNeo4jError(f"{source}: no pom.xml, not the local Neo4j launcher project")
    project = build_dir if build_dir is not None else source
    target = project / "target"
    jar = target / JAR_NAME
    stamp = target / STAMP_NAME
    digest = source_digest(source)
    with _file_lock(target / ".graphmem-build.lock"):
        current = stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest
        if current and not force and jar.is_file() and (target / "lib").is_dir():
            log.debug("local Neo4j launcher is current: %s", jar)
            return jar
        if project != source:
            log.info("copying the launcher sources from %s to %s", source, project)
            shutil.copy2(source / "pom.xml", project / "pom.xml")
            shutil.rmtree(project / "src", ignore_errors=True)
            shutil.copytree(source / "src", project / "src")
        find_java()
        mvn = find_maven()
        log.info("building the local Neo4j launcher in %s (mvn package)", project)
        began = time.monotonic()
        try:
            done = subprocess.run([mvn, "-q", "-B", "-DskipTests", "package"], cwd=project,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  stdin=subprocess.DEVNULL)
        except OSError as e:
            raise LocalNeo4jError(f"cannot run Maven ({mvn}): {e}") from e
        hint = ""
        if "No compiler is provided" in done.stdout:
            hint = "\n(Maven found a JRE, not a JDK: install a JDK 17+ or set JAVA_HOME to one.)"
        if done.returncode != 0:
            raise LocalNeo4jError(
                f"Maven failed to build the local Neo4j launcher in {project} (exit code {done.returncode}); "
                f"last lines of its output:\n{_tail(done.stdout, 40)}{hint}")
        if not jar.is_file():
            raise LocalNeo4jError(f"Maven succeeded but {jar} is missing; output:\n{_tail(done.stdout, 40)}")
        stamp.write_text(digest + "\n", encoding="utf-8")
        log.info("built %s in %.1f s", jar, time.monotonic() - began)
        return jar


# --- processes and state ----------------------------------------------------------------------------------------


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


def _is_launcher(pid: int, home: Path) -> bool:
    """Whether ``pid`` is alive and (where ``/proc`` tells) the launcher of ``home`` (not a recycled pid)."""
    if not _pid_alive(pid):
        return False
    cmdline = _cmdline(pid)
    return cmdline is None or (JAR_NAME in cmdline and str(home / NEO4J_DIR_NAME) in cmdline)


def state_file(home: Path) -> Path:
    """The state file of ``home`` (the same path as ``Settings.state_file``)."""
    return home / STATE_FILE_NAME


def _resolve(home: Path) -> Path:
    return home.expanduser().resolve()


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


def _memory_size(variable: str, default: str) -> str:
    value = os.environ.get(variable) or default
    if not re.fullmatch(r"\d+[kKmMgG]", value):
        raise ConfigError(f"{variable} must be a memory size such as 512m or 2g, got {value!r}")
    return value


def _heap() -> str:
    return _memory_size(HEAP_ENV, DEFAULT_HEAP)


def launcher_command(java: str, jar: Path, neo4j_home: Path, port: int, heap: str = DEFAULT_HEAP,
                     page_cache: str | None = None) -> list[str]:
    """The command line that runs the launcher: heap ``-Xms``/``-Xmx`` = ``heap``, :data:`JVM_FLAGS`, the jar, and
    the page cache (``$GRAPHMEM_NEO4J_PAGECACHE``, default 256m)."""
    cache = page_cache or _memory_size(PAGE_CACHE_ENV, DEFAULT_PAGE_CACHE)
    return [java, f"-Xms{heap}", f"-Xmx{heap}", *JVM_FLAGS, "-jar", str(jar),
            "--home", str(neo4j_home), "--port", str(port), "--page-cache", cache]


def _read_from(path: Path, offset: int) -> str:
    try:
        with path.open("rb") as fh:
            fh.seek(offset)
            return fh.read().decode(errors="replace")
    except OSError:
        return ""


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
