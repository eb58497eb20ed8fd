"""The settings' defaults and file names: plain values, no import beyond the standard library (read by the
launcher of the local Neo4j and the settings model alike)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

DEFAULT_URI = "bolt://127.0.0.1:7687"
DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
DEFAULT_SERVER_HOST = "127.0.0.1"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""The host names of this machine only: without an engine key ``graphmem serve`` binds to one of them alone."""
DEFAULT_SERVER_PORT = 8750
DEFAULT_MAX_BODY = 16 * 1024 * 1024
DEFAULT_RETRY_SECONDS = 30.0
"""How long a command (the CLI, a MemoryService of the Python API) retries a transaction on a lost connection before
it fails: longer than a server's request (:data:`DEFAULT_SERVER_RETRY_SECONDS`), since a batch job had rather wait
out a Neo4j restart. A command over several targets with one of them down waits this long, plus the driver's last
wait (about 35 s in all), before it names that target."""
DEFAULT_SERVER_RETRY_SECONDS = 8.0
"""How long a request of ``graphmem serve`` retries a transaction on a lost connection (a Neo4j restart or a cluster
leader switch usually takes less); the driver's waits between attempts grow about 1, 2, 4, 8 s, so a request to a
Neo4j that stays down gets its 503 after 13-16 s (docs/service.md)."""
DEFAULT_TARGET = "default"
"""The name of the one Neo4j target of a configuration without ``[targets]`` tables: the ``[neo4j]`` settings."""
CONFIG_FILE_NAME = "graphmem.toml"
STATE_FILE_NAME = "neo4j-local.json"
FREE_TABLES = ("parameters", "profiles")
"""Tables of the configuration file that are not settings (read by graphmem.model.params, field by field)."""


def default_home(environ: Mapping[str, str]) -> Path:
    """The local data directory: ``$GRAPHMEM_HOME``, else ``$XDG_DATA_HOME/graphmem``, else ``~/.local/share/graphmem``."""
    if environ.get("GRAPHMEM_HOME"):
        return Path(environ["GRAPHMEM_HOME"]).expanduser()
    base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "graphmem"


