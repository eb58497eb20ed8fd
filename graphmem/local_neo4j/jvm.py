"""The launcher's JVM: finding Java 17+, its flags, its heap and page cache, and the command line that runs it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from graphmem.errors import ConfigError, LocalNeo4jError

MIN_JAVA = 17
HEAP_ENV = "GRAPHMEM_NEO4J_HEAP"
DEFAULT_HEAP = "1g"
PAGE_CACHE_ENV = "GRAPHMEM_NEO4J_PAGECACHE"
DEFAULT_PAGE_CACHE = "256m"  # holds the store of ~100k memories with their 384-float embeddings

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
