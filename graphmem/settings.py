"""Settings, read once at the edge (the CLI, the service) and passed down as plain values.

Precedence, lowest first: built-in defaults, the TOML configuration file, environment variables, explicit
overrides (CLI flags or keyword arguments). Nothing here runs at import time.

The configuration file is ``graphmem.toml`` in the working directory, or the path in ``GRAPHMEM_CONFIG``
(or ``--config``). Its tables::

    [neo4j]       uri, user, password, database
    [embedding]   model, batch_size, backend   # backend: onnx (default) or torch
    [local]       home          # where `graphmem neo4j start` keeps its data and state file
    [server]      engine_key, host, port, max_body_bytes   # `graphmem serve` (docs/service.md)
    seed = 7                    # top-level: the seed of every random choice (reconsolidation)
    [parameters]  ...           # model parameter overrides (graphmem.model.params)
    [profiles.NAME] ...         # user-defined memory profiles (graphmem.model.params)
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from graphmem.errors import ConfigError, closest, did_you_mean
from graphmem.model.params import Parameters, load_parameters

if TYPE_CHECKING:
    from graphmem.encoders import Backend

DEFAULT_URI = "bolt://127.0.0.1:7687"
DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
DEFAULT_SERVER_HOST = "127.0.0.1"
DEFAULT_SERVER_PORT = 8750
DEFAULT_MAX_BODY = 16 * 1024 * 1024
CONFIG_FILE_NAME = "graphmem.toml"
STATE_FILE_NAME = "neo4j-local.json"
KNOWN_KEYS: dict[str, frozenset[str] | None] = {
    "neo4j": frozenset({"uri", "user", "password", "database"}),
    "embedding": frozenset({"model", "batch_size", "backend"}),
    "local": frozenset({"home"}),
    "server": frozenset({"engine_key", "host", "port", "max_body_bytes"}),
    "seed": None,
    "parameters": None,  # checked field by field by graphmem.model.params
    "profiles": None,
}
"""The configuration file's top-level keys, and the keys each of the settings tables may hold."""


def default_home(environ: Mapping[str, str]) -> Path:
    """The local data directory: ``$GRAPHMEM_HOME``, else ``$XDG_DATA_HOME/graphmem``, else ``~/.local/share/graphmem``."""
    if environ.get("GRAPHMEM_HOME"):
        return Path(environ["GRAPHMEM_HOME"]).expanduser()
    base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "graphmem"


@dataclass(frozen=True)
class Settings:
    """Every setting graphmem reads from outside.

    uri : str, Bolt URI (``bolt://`` for one server, ``neo4j://`` for a cluster)
    uri_source : str, where the URI came from ("flag", "env", "config", "local-state", "default")
    user, password : str, credentials (ignored by the local launcher, which disables auth on loopback)
    database : str or None, the database name (None: the server's default)
    embedding_model : str, a sentence-transformers model name or a local path
    embedding_batch_size : int, texts per encode call
    embedding_backend : "onnx" (ONNX Runtime, the default) or "torch" (PyTorch): what runs the model
        (graphmem/encoders.py; the same vectors either way)
    seed : int, the seed of every random choice
    home : Path, where the local Neo4j keeps data and its state file
    config_file : Path or None, the TOML file that was read
    config : dict, the whole parsed TOML file (model parameters and profiles are read from it)
    engine_key : str or None, the key of engine operations of ``graphmem serve`` (``GRAPHMEM_ENGINE_KEY``); None:
        the server binds to loopback only and asks no credential of engines
    server_host, server_port : where ``graphmem serve`` listens (default 127.0.0.1:8750)
    max_body_bytes : int, the largest request body the server reads (default 16 MiB; larger ones get 413)
    """

    uri: str = DEFAULT_URI
    uri_source: str = "default"
    user: str = "neo4j"
    password: str = "graphmem"
    database: str | None = None
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    embedding_batch_size: int = 64
    embedding_backend: Backend = "onnx"
    seed: int = 0
    home: Path = field(default_factory=lambda: default_home(os.environ))
    config_file: Path | None = None
    config: dict[str, Any] = field(default_factory=dict, repr=False)  # may hold [server] engine_key
    engine_key: str | None = field(default=None, repr=False)
    server_host: str = DEFAULT_SERVER_HOST
    server_port: int = DEFAULT_SERVER_PORT
    max_body_bytes: int = DEFAULT_MAX_BODY

    @property
    def state_file(self) -> Path:
        """The local launcher's state file (pid, URI, home) written by ``graphmem neo4j start``."""
        return self.home / STATE_FILE_NAME

    def parameters(self) -> Parameters:
        """The model parameters: the shipped ones (``graphmem/model/defaults.toml``) with this configuration's
        ``[parameters]`` and ``[profiles.NAME]`` tables applied. Raises ConfigError naming the file, the field and
        the allowed range."""
        return load_parameters(self.config, str(self.config_file or "<defaults>"))

    def with_overrides(self, **overrides: Any) -> Settings:
        """A copy with every non-None override applied (flags win over everything)."""
        given = {k: v for k, v in overrides.items() if v is not None}
        if "uri" in given:
            given["uri_source"] = "flag"
        return replace(self, **given)


def _read_config(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            config: dict[str, Any] = tomllib.load(fh)
            return config
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: malformed TOML: {e}") from e
    except OSError as e:
        raise ConfigError(f"{path}: cannot read configuration file: {e.strerror}") from e


def _local_state_uri(state_file: Path) -> str | None:
    try:
        state = json.loads(state_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    uri = state.get("uri") if isinstance(state, dict) else None
    return uri if isinstance(uri, str) else None


def _backend(value: str, path: Path | None) -> Backend:
    """The embedding backend named by ``[embedding] backend`` or ``GRAPHMEM_EMBEDDING_BACKEND`` (any case);
    ConfigError else."""
    from graphmem.encoders import BACKENDS, backend_named  # here: graphmem.encoders loads numpy, which settings never needs

    try:
        return backend_named(value.strip().lower())
    except ValueError:
        raise ConfigError(f"{path or 'GRAPHMEM_EMBEDDING_BACKEND'}: field 'embedding.backend' must be one of "
                          f"{', '.join(BACKENDS)}, got {value!r}") from None


def _check_keys(config: Mapping[str, Any], path: Path | None) -> None:
    """Raise ConfigError naming the first unknown table or key (a typo would otherwise be ignored silently)."""

    def unknown(name: str, known: frozenset[str] | dict[str, Any], where: str) -> ConfigError:
        hint = did_you_mean(closest(name, known, n=1), quote=True)
        hint = f"{hint} " if hint else ""
        return ConfigError(f"{path}: unknown {where} '{name}' ({hint}known: {', '.join(sorted(known))})")

    for key, value in config.items():
        if key not in KNOWN_KEYS:
            raise unknown(key, KNOWN_KEYS, "table or key")
        allowed = KNOWN_KEYS[key]
        if allowed is not None and isinstance(value, dict):
            for field_name in value:
                if field_name not in allowed:
                    raise unknown(field_name, allowed, f"field of [{key}]")


def load_settings(
    environ: Mapping[str, str] | None = None,
    config_path: Path | str | None = None,
    cwd: Path | None = None,
) -> Settings:
    """Read settings from the configuration file and the environment.

    environ : mapping, defaults to ``os.environ``
    config_path : explicit configuration file; else ``$GRAPHMEM_CONFIG``; else ``./graphmem.toml`` if present
    cwd : where to look for ``graphmem.toml`` (defaults to the working directory)

    The Neo4j URI comes from, in order: ``NEO4J_URI``, the configuration file, the state file of a local Neo4j
    started by ``graphmem neo4j start``, the default ``bolt://127.0.0.1:7687``.

    Raises ConfigError for an unreadable or malformed configuration file, an unknown table or field (naming the
    closest known one), or a wrongly typed value.
    """
    env = os.environ if environ is None else environ
    path: Path | None = None
    if config_path is not None:
        path = Path(config_path)
        if not path.exists():
            raise ConfigError(f"{path}: configuration file not found")
    elif env.get("GRAPHMEM_CONFIG"):
        path = Path(env["GRAPHMEM_CONFIG"])
        if not path.exists():
            raise ConfigError(f"{path}: configuration file not found (from GRAPHMEM_CONFIG)")
    else:
        candidate = (cwd or Path.cwd()) / CONFIG_FILE_NAME
        path = candidate if candidate.exists() else None
    config = _read_config(path) if path else {}
    _check_keys(config, path)

    def section(name: str) -> dict[str, Any]:
        value = config.get(name, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{path}: [{name}] must be a table")
        return value

    def typed(table: str, key: str, value: Any, kind: type) -> Any:
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            name = f"{table}.{key}" if table else key
            raise ConfigError(f"{path}: field '{name}' must be {kind.__name__}, got {value!r}")
        return value

    neo = section("neo4j")
    emb = section("embedding")
    local = section("local")
    server = section("server")
    engine_key = env.get("GRAPHMEM_ENGINE_KEY") or (typed("server", "engine_key", server["engine_key"], str)
                                                   if "engine_key" in server else None)
    max_body = typed("server", "max_body_bytes", server.get("max_body_bytes", DEFAULT_MAX_BODY), int)
    if env.get("GRAPHMEM_MAX_BODY_BYTES"):
        try:
            max_body = int(env["GRAPHMEM_MAX_BODY_BYTES"])
        except ValueError as e:
            raise ConfigError(f"GRAPHMEM_MAX_BODY_BYTES must be an integer, got {env['GRAPHMEM_MAX_BODY_BYTES']!r}") from e
    home = default_home(env)
    if "home" in local:
        home = Path(typed("local", "home", local["home"], str)).expanduser()
    if env.get("GRAPHMEM_HOME"):
        home = Path(env["GRAPHMEM_HOME"]).expanduser()

    uri, source = DEFAULT_URI, "default"
    if "uri" in neo:
        uri, source = typed("neo4j", "uri", neo["uri"], str), "config"
    elif (state_uri := _local_state_uri(home / STATE_FILE_NAME)) is not None:
        uri, source = state_uri, "local-state"
    if env.get("NEO4J_URI"):
        uri, source = env["NEO4J_URI"], "env"

    seed = typed("", "seed", config.get("seed", 0), int)
    if env.get("GRAPHMEM_SEED"):
        try:
            seed = int(env["GRAPHMEM_SEED"])
        except ValueError as e:
            raise ConfigError(f"GRAPHMEM_SEED must be an integer, got {env['GRAPHMEM_SEED']!r}") from e

    batch_size = typed("embedding", "batch_size", emb.get("batch_size", 64), int)
    port = typed("server", "port", server.get("port", DEFAULT_SERVER_PORT), int)
    for table, key, value, low, high in (("embedding", "batch_size", batch_size, 1, None),
                                         ("server", "port", port, 1, 65535),
                                         ("server", "max_body_bytes", max_body, 1, None)):
        if value < low or high is not None and value > high:
            where = "GRAPHMEM_MAX_BODY_BYTES" if key == "max_body_bytes" and env.get("GRAPHMEM_MAX_BODY_BYTES") else path
            allowed = f"{low}..{high}" if high is not None else f">= {low}"
            raise ConfigError(f"{where}: field '{table}.{key}' must be {allowed}, got {value}")

    database = neo.get("database")
    if database is not None:
        database = typed("neo4j", "database", database, str)
    return Settings(
        uri=uri,
        uri_source=source,
        user=env.get("NEO4J_USER") or typed("neo4j", "user", neo.get("user", "neo4j"), str),
        password=env.get("NEO4J_PASSWORD") or typed("neo4j", "password", neo.get("password", "graphmem"), str),
        database=env.get("NEO4J_DATABASE") or database,
        embedding_model=env.get("GRAPHMEM_EMBEDDING_MODEL")
        or typed("embedding", "model", emb.get("model", DEFAULT_EMBEDDING_MODEL), str),
        embedding_batch_size=batch_size,
        embedding_backend=_backend(env.get("GRAPHMEM_EMBEDDING_BACKEND")
                                   or typed("embedding", "backend", emb.get("backend", "onnx"), str), path),
        seed=seed,
        home=home,
        config_file=path,
        config=config,
        engine_key=engine_key or None,
        server_host=typed("server", "host", server.get("host", DEFAULT_SERVER_HOST), str),
        server_port=port,
        max_body_bytes=max_body,
    )
