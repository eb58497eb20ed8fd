"""Building the launcher: locating its Maven project (a checkout's or the wheel's), Maven, and the cached build.

The launcher is the Maven project ``docker/neo4j-local/``. In a checkout it is built in place; from an installed
wheel its sources (``graphmem/_neo4j_local``) are copied to a build directory under the user's cache first,
because site-packages may be read-only. A stamp next to ``target/`` holds a hash of ``pom.xml`` and the sources,
and Maven runs again only when it changes.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import time
from pathlib import Path

from graphmem.errors import LocalNeo4jError
from graphmem.local_neo4j.files import _file_lock, _tail
from graphmem.local_neo4j.jvm import find_java

log = logging.getLogger(__name__)

JAR_NAME = "graphmem-neo4j-local.jar"
STAMP_NAME = ".graphmem-build-stamp"


def _graphmem_dir() -> Path:
    """The ``graphmem`` package directory (this module lives in ``graphmem/local_neo4j/``)."""
    return Path(__file__).resolve().parent.parent


def checkout_source() -> Path:
    """``docker/neo4j-local`` of the repository this package was imported from (it may not exist)."""
    return _graphmem_dir().parent / "docker" / "neo4j-local"


def packaged_source() -> Path:
    """``graphmem/_neo4j_local`` of an installed wheel (it may not exist)."""
    return _graphmem_dir() / "_neo4j_local"


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


def find_maven() -> str:
    """The ``mvn`` executable on PATH. Raises LocalNeo4jError when there is none."""
    mvn = shutil.which("mvn")
    if mvn is None:
        raise LocalNeo4jError(
            "Maven (`mvn`) is needed to build the local Neo4j launcher, but it is not on PATH. Install Maven 3 "
            "(e.g. `apt install maven`), or point NEO4J_URI at another Neo4j.")
    return mvn


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
