"""Settings, read once at the edge (the CLI, the service) and passed down as plain values (pydantic-settings).

Precedence, lowest first: built-in defaults, the TOML configuration file, environment variables, explicit
overrides (CLI flags or keyword arguments). Nothing here runs at import time; :func:`load_settings` reads the
outside, and ``Settings(**values)`` alone is plain values and defaults (it reads nothing).

The configuration file is ``graphmem.toml`` in the working directory, or the path in ``GRAPHMEM_CONFIG``
(or ``--config``). Its tables::

    [neo4j]       uri, user, password, database, retry_seconds   # retry_seconds: a command's wait for a lost Neo4j
    [targets.NAME] uri, database, user, password   # several Neo4j targets the games spread over (docs/service.md)
    [embedding]   model, batch_size, backend   # backend: onnx (default) or torch
    [local]       home          # where `graphmem neo4j start` keeps its data and state file
    [server]      engine_key, host, port, max_body_bytes, retry_seconds   # `graphmem serve` (docs/service.md)
    seed = 7                    # top-level: the seed of every random choice (reconsolidation)
    [parameters]  ...           # model parameter overrides (graphmem.model.params)
    [profiles.NAME] ...         # user-defined memory profiles (graphmem.model.params)

:mod:`.defaults` holds the plain defaults and file names; :mod:`.model` the pydantic-settings model
(:class:`Settings`, :func:`load_settings`), imported when first named here, so that importing this package (the
launcher of the local Neo4j, ``graphmem --help``) does not load pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphmem.settings.defaults import (
    CONFIG_FILE_NAME,
    DEFAULT_EMBEDDING_MODEL,
    DEFAULT_MAX_BODY,
    DEFAULT_RETRY_SECONDS,
    DEFAULT_SERVER_HOST,
    DEFAULT_SERVER_PORT,
    DEFAULT_SERVER_RETRY_SECONDS,
    DEFAULT_URI,
    STATE_FILE_NAME,
    default_home,
)

if TYPE_CHECKING:
    from graphmem.settings.model import ENVIRONMENT, FILE_KEYS, KNOWN_KEYS, Settings, load_settings

_LAZY = ("Settings", "load_settings", "FILE_KEYS", "ENVIRONMENT", "KNOWN_KEYS")


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from graphmem.settings import model

        return getattr(model, name)
    raise AttributeError(f"module 'graphmem.settings' has no attribute {name!r}")


__all__ = ["CONFIG_FILE_NAME", "DEFAULT_EMBEDDING_MODEL", "DEFAULT_MAX_BODY", "DEFAULT_RETRY_SECONDS",
           "DEFAULT_SERVER_HOST", "DEFAULT_SERVER_PORT", "DEFAULT_SERVER_RETRY_SECONDS", "DEFAULT_URI", "ENVIRONMENT",
           "FILE_KEYS", "KNOWN_KEYS", "STATE_FILE_NAME", "Settings", "default_home", "load_settings"]
