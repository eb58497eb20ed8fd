"""The settings as a pydantic-settings model, and :func:`load_settings` (re-exported by :mod:`graphmem.settings`,
whose docstring gives the file's tables and the precedence).

Each setting names its file key and its environment variable on its field (``file``, ``env``), the one place
both sources read them from.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, InitSettingsSource, PydanticBaseSettingsSource, SettingsConfigDict

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from graphmem.errors import ConfigError, closest, did_you_mean
from graphmem.model.params import Parameters, load_parameters
from graphmem.settings.defaults import (
    CONFIG_FILE_NAME,
    DEFAULT_EMBEDDING_MODEL,
    DEFAULT_MAX_BODY,
    DEFAULT_RETRY_SECONDS,
    DEFAULT_SERVER_HOST,
    DEFAULT_SERVER_PORT,
    DEFAULT_SERVER_RETRY_SECONDS,
    DEFAULT_TARGET,
    DEFAULT_URI,
    FREE_TABLES,
    STATE_FILE_NAME,
    default_home,
)

if TYPE_CHECKING:
    from graphmem.encoders import Backend
else:
    Backend = str  # the Literal lives in graphmem.encoders, which loads numpy; checked by _backend below

TARGET_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""A target's name: 1-64 letters, digits, '_' or '-' (it is written in logs, messages and the games' listing)."""


class Target(BaseModel):
    """One Neo4j target of ``[targets.NAME]`` (docs/service.md#many-games-several-neo4j-targets): where some of the
    games live.

    uri : str, Bolt URI (``bolt://`` for one server, ``neo4j://`` for a database of a cluster)
    database : str or None, the database name (None: the server's default)
    user, password : str or None, credentials (None: those of ``[neo4j]``)
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    uri: str
    database: str | None = None
    user: str | None = None
    password: str | None = Field(None, repr=False)


def _named(default: Any = None, *, file: str | None = None, env: str | None = None, **kwargs: Any) -> Any:
    return Field(default, json_schema_extra={"file": file, "env": env}, **kwargs)


class Settings(BaseSettings):
    """Every setting graphmem reads from outside.

    uri : str, Bolt URI (``bolt://`` for one server, ``neo4j://`` for a cluster)
    uri_source : str, where the URI came from ("flag", "env", "config", "local-state", "default")
    user, password : str, credentials (ignored by the local launcher, which disables auth on loopback)
    database : str or None, the database name (None: the server's default)
    embedding_model : str, a sentence-transformers model name or a local path
    embedding_batch_size : int >= 1, texts per encode call
    embedding_backend : "onnx" (ONNX Runtime, the default) or "torch" (PyTorch): what runs the model
        (graphmem/encoders.py; the same vectors either way)
    seed : int, the seed of every random choice
    home : Path, where the local Neo4j keeps data and its state file
    config_file : Path or None, the TOML file that was read
    config : dict, the whole parsed TOML file (model parameters and profiles are read from it)
    engine_key : str or None, the key of engine operations of ``graphmem serve`` (``GRAPHMEM_ENGINE_KEY``); None:
        the server binds to loopback only and asks no credential of engines
    server_host, server_port : where ``graphmem serve`` listens (default 127.0.0.1:8750; port in 1..65535)
    max_body_bytes : int >= 1, the largest request body the server reads (default 16 MiB; larger ones get 413)
    targets : {name: Target}, the Neo4j targets the games are spread over (``[targets.NAME]`` tables, or
        ``GRAPHMEM_TARGETS`` as JSON: ``{"a": {"uri": "bolt://h1:7687"}, ...}``); empty: one target, the ``[neo4j]``
        settings (:meth:`target_settings`)
    retry_seconds : float in (0, 300], seconds a command (the CLI, the Python API) retries a transaction on a lost
        connection before it fails (``GRAPHMEM_RETRY_SECONDS``; default 30)
    server_retry_seconds : float in (0, 300], seconds a request of the server retries a transaction on a lost
        connection before it answers 503 (``GRAPHMEM_SERVER_RETRY_SECONDS``; default 8: the 503 after 13-16 s)

    Raises ConfigError (from :func:`load_settings`) naming the file or variable, the field and the allowed values.
    """

    model_config = SettingsConfigDict(frozen=True, extra="ignore", validate_default=False)

    uri: str = _named(DEFAULT_URI, file="neo4j.uri", env="NEO4J_URI")
    uri_source: str = "default"
    user: str = _named("neo4j", file="neo4j.user", env="NEO4J_USER")
    password: str = _named("graphmem", file="neo4j.password", env="NEO4J_PASSWORD")
    database: str | None = _named(None, file="neo4j.database", env="NEO4J_DATABASE")
    retry_seconds: float = _named(DEFAULT_RETRY_SECONDS, file="neo4j.retry_seconds", env="GRAPHMEM_RETRY_SECONDS",
                                  gt=0, le=300)
    embedding_model: str = _named(DEFAULT_EMBEDDING_MODEL, file="embedding.model", env="GRAPHMEM_EMBEDDING_MODEL")
    embedding_batch_size: int = _named(64, file="embedding.batch_size", ge=1)
    embedding_backend: Backend = _named("onnx", file="embedding.backend", env="GRAPHMEM_EMBEDDING_BACKEND")
    seed: int = _named(0, file="seed", env="GRAPHMEM_SEED")
    home: Path = _named(None, file="local.home", env="GRAPHMEM_HOME")
    config_file: Path | None = None
    config: dict[str, Any] = Field(default_factory=dict, repr=False)  # may hold [server] engine_key
    engine_key: str | None = _named(None, file="server.engine_key", env="GRAPHMEM_ENGINE_KEY", repr=False)
    server_host: str = _named(DEFAULT_SERVER_HOST, file="server.host")
    server_port: int = _named(DEFAULT_SERVER_PORT, file="server.port", ge=1, le=65535)
    max_body_bytes: int = _named(DEFAULT_MAX_BODY, file="server.max_body_bytes", env="GRAPHMEM_MAX_BODY_BYTES", ge=1)
    server_retry_seconds: float = _named(DEFAULT_SERVER_RETRY_SECONDS, file="server.retry_seconds",
                                         env="GRAPHMEM_SERVER_RETRY_SECONDS", gt=0, le=300)

    targets: dict[str, Target] = Field(default_factory=dict, json_schema_extra={"file": "targets",
                                                                                "env": "GRAPHMEM_TARGETS"})

    def __init__(self, **values: Any) -> None:
        if values.get("home") is None:
            values["home"] = default_home(os.environ)
        super().__init__(**values)

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        """``Settings(**values)`` reads nothing else: :func:`load_settings` gives the environment and the file."""
        return (init_settings,)

    @field_validator("home", mode="before")
    @classmethod
    def _expand(cls, value: Any) -> Any:
        return Path(value).expanduser() if isinstance(value, str) else value

    @field_validator("embedding_backend", mode="before")
    @classmethod
    def _backend(cls, value: Any) -> Any:
        from graphmem.encoders import BACKENDS, backend_named  # here: graphmem.encoders loads numpy

        if not isinstance(value, str):
            raise ValueError(f"must be one of {', '.join(BACKENDS)}, got {value!r}")
        try:
            return backend_named(value.strip().lower())
        except ValueError:
            raise ValueError(f"must be one of {', '.join(BACKENDS)}, got {value!r}") from None

    @field_validator("targets", mode="before")
    @classmethod
    def _targets(cls, value: Any) -> Any:
        if isinstance(value, str):  # GRAPHMEM_TARGETS
            try:
                value = json.loads(value)
            except ValueError as e:
                raise ValueError(f"must be JSON ({{\"NAME\": {{\"uri\": ...}}, ...}}): {e}") from None
        if not isinstance(value, dict):
            raise ValueError(f"must be a table of targets ([targets.NAME] with uri, database, user, password), "
                             f"got {value!r}")
        for name in value:
            if not TARGET_NAME.match(str(name)):
                raise ValueError(f"target name {name!r} must be 1-64 letters, digits, '_' or '-'")
        return value

    @field_validator("targets", mode="after")
    @classmethod
    def _distinct_targets(cls, targets: dict[str, Target]) -> dict[str, Target]:
        seen: dict[tuple[str, str | None], str] = {}
        for name, target in targets.items():
            where = (target.uri.rstrip("/").lower(), target.database)
            if where in seen:
                raise ValueError(f"targets '{seen[where]}' and '{name}' are the same database ({target.uri}, "
                                 f"database {target.database or 'default'}): a game must live in one place")
            seen[where] = name
        return targets

    @field_validator("engine_key", mode="after")
    @classmethod
    def _no_empty_key(cls, value: str | None) -> str | None:
        return value or None

    @property
    def state_file(self) -> Path:
        """The local launcher's state file (pid, URI, home) written by ``graphmem neo4j start``."""
        return self.home / STATE_FILE_NAME

    def parameters(self) -> Parameters:
        """The model parameters: the shipped ones (``graphmem/model/defaults.toml``) with this configuration's
        ``[parameters]`` and ``[profiles.NAME]`` tables applied. Raises ConfigError naming the file, the field and
        the allowed range."""
        return load_parameters(self.config, str(self.config_file or "<defaults>"))

    def target_settings(self) -> dict[str, Settings]:
        """{target name: the settings of a service on that target}, in the configured order: each ``[targets.NAME]``
        with its uri and database, its user and password or those of ``[neo4j]``; without ``[targets]``, one target
        :data:`DEFAULT_TARGET` with these settings unchanged (one Neo4j, as graphmem always had)."""
        if not self.targets:
            return {DEFAULT_TARGET: self}
        return {name: self.model_copy(update={
            "uri": t.uri, "uri_source": "config", "database": t.database, "user": t.user or self.user,
            "password": t.password or self.password}) for name, t in self.targets.items()}

    def with_overrides(self, **overrides: Any) -> Settings:
        """A copy with every non-None override applied (flags win over everything)."""
        given = {k: v for k, v in overrides.items() if v is not None}
        if "uri" in given:
            given["uri_source"] = "flag"
        return self.model_copy(update=given)


def _extra(field: FieldInfo, key: str) -> str | None:
    extra = field.json_schema_extra
    value = extra.get(key) if isinstance(extra, dict) else None
    return value if isinstance(value, str) else None


FILE_KEYS: dict[str, str] = {key: name for name, f in Settings.model_fields.items() if (key := _extra(f, "file"))}
"""{"neo4j.uri": "uri", ...}: the settings' keys in the configuration file."""
ENVIRONMENT: dict[str, str] = {var: name for name, f in Settings.model_fields.items() if (var := _extra(f, "env"))}
"""{"NEO4J_URI": "uri", ...}: the settings' environment variables."""
KNOWN_KEYS: dict[str, frozenset[str] | None] = {
    **{table: frozenset(k.split(".")[1] for k in FILE_KEYS if k.startswith(f"{table}."))
       for table in sorted({k.split(".")[0] for k in FILE_KEYS if "." in k})},
    **{k: None for k in FILE_KEYS if "." not in k}, **dict.fromkeys(FREE_TABLES)}
"""The configuration file's top-level keys, and the keys each of the settings tables may hold."""


class EnvironmentSource(PydanticBaseSettingsSource):
    """The settings of an environment mapping (each field's ``env`` variable; an empty one counts as unset)."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        super().__init__(settings_cls)
        self.environ = environ

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        """(value, field name, is complex) of one field (pydantic-settings' source interface)."""
        var = _extra(field, "env")
        return (self.environ.get(var) or None if var else None), field_name, False

    def __call__(self) -> dict[str, Any]:
        found: dict[str, Any] = {name: self.environ[var] for var, name in ENVIRONMENT.items() if self.environ.get(var)}
        if "uri" in found:
            found["uri_source"] = "env"
        return found


class ConfigFileSource(PydanticBaseSettingsSource):
    """The settings of a ``graphmem.toml`` (already read: ``config``): each field's ``file`` key, flattened; the
    whole file is kept as ``config`` (parameters and profiles). Raises ConfigError naming the first unknown table
    or key (with the closest known one), or a table that is not one."""

    def __init__(self, settings_cls: type[BaseSettings], path: Path | None, config: dict[str, Any]) -> None:
        super().__init__(settings_cls)
        self.path = path
        self.read = config

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        """(value, field name, is complex) of one field (pydantic-settings' source interface)."""
        return self().get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        _check_keys(self.read, self.path)
        found: dict[str, Any] = {}
        for key, name in FILE_KEYS.items():
            table, _, field = key.rpartition(".")
            holder = self.read.get(table, {}) if table else self.read
            if not isinstance(holder, dict):
                raise ConfigError(f"{self.path}: [{table}] must be a table")
            if field in holder:
                found[name] = _file_typed(holder[field], name, key, self.path)
        if "uri" in found:
            found["uri_source"] = "config"
        if self.path is not None:
            found["config_file"] = self.path
        found["config"] = self.read
        return found


_WANTED = {"int": "an integer", "float": "a number", "string": "a string", "bool": "true or false"}
"""What a value of each of pydantic's type errors (``int_parsing``, ``float_type``, ...) must be, in a message."""


def _file_typed(value: Any, name: str, key: str, path: Path | None) -> Any:
    """``value`` of the file's ``key`` (the setting ``name``), refused when the setting is a number and the file
    gives a boolean or a string: TOML has numbers, so ``retry_seconds = true`` or ``port = "8750"`` is a mistake,
    where pydantic would read them as 1 and 8750 (the environment's strings are still read as numbers). Raises
    ConfigError naming the file, the field and what it must be."""
    number = Settings.model_fields[name].annotation
    if number in (int, float) and (isinstance(value, bool) or not isinstance(value, (int, float))):
        wanted = _WANTED["int" if number is int else "float"]
        given = f"{str(value).lower()} (a boolean)" if isinstance(value, bool) else (
            f"{value!r} (a string: write it without quotes)" if isinstance(value, str) else repr(value))
        raise ConfigError(f"{path}: field '{key}' must be {wanted}, got {given}")
    return value


class DefaultsSource(PydanticBaseSettingsSource):
    """Defaults that depend on the environment: the local data directory (:func:`default_home`)."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        super().__init__(settings_cls)
        self.environ = environ

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        """(value, field name, is complex) of one field (pydantic-settings' source interface)."""
        return self().get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return {"home": default_home(self.environ)}


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


def _config_path(env: Mapping[str, str], config_path: Path | str | None, cwd: Path | None) -> Path | None:
    if config_path is not None:
        path = Path(config_path)
        if not path.exists():
            raise ConfigError(f"{path}: configuration file not found")
        return path
    if env.get("GRAPHMEM_CONFIG"):
        path = Path(env["GRAPHMEM_CONFIG"])
        if not path.exists():
            raise ConfigError(f"{path}: configuration file not found (from GRAPHMEM_CONFIG)")
        return path
    candidate = (cwd or Path.cwd()) / CONFIG_FILE_NAME
    return candidate if candidate.exists() else None


def _refusal(error: ValidationError, flags: Mapping[str, Any], env: Mapping[str, str],
             path: Path | None) -> ConfigError:
    """The ConfigError of the first invalid value: where it came from (a flag, a variable, the file), the field as
    the file names it, and what it must be."""
    first = error.errors(include_url=False)[0]
    name = str(first["loc"][0]) if first["loc"] else ""
    field = Settings.model_fields.get(name)
    key = (_extra(field, "file") if field else None) or name
    if name == "targets" and len(first["loc"]) > 1:  # [targets.NAME] field: name the table and the field
        key = ".".join(str(part) for part in first["loc"])
    var = _extra(field, "env") if field else None
    where = "flag" if name in flags else var if var and env.get(var) else str(path)
    value = first.get("input")
    kind = first["type"]
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal") and field is not None:
        bounds = {op: bound for m in field.metadata for op in ("gt", "ge", "lt", "le")
                  if (bound := getattr(m, op, None)) is not None}
        if set(bounds) == {"ge", "le"}:
            allowed = f"{bounds['ge']}..{bounds['le']}"
        else:
            signs = {"gt": ">", "ge": ">=", "lt": "<", "le": "<="}
            allowed = " and ".join(f"{signs[op]} {bound}" for op, bound in bounds.items())
        return ConfigError(f"{where}: field '{key}' must be {allowed}, got {value}")
    if kind.startswith(("int_", "string_", "float_", "bool_")):
        return ConfigError(f"{where}: field '{key}' must be {_WANTED[kind.split('_')[0]]}, got {value!r}")
    return ConfigError(f"{where}: field '{key}' {str(first['msg']).removeprefix('Value error, ')}")


def load_settings(
    environ: Mapping[str, str] | None = None,
    config_path: Path | str | None = None,
    cwd: Path | None = None,
    **flags: Any,
) -> Settings:
    """Read settings from the configuration file and the environment, with ``flags`` (CLI flags: a None flag is
    not given) over both.

    environ : mapping, defaults to ``os.environ``
    config_path : explicit configuration file; else ``$GRAPHMEM_CONFIG``; else ``./graphmem.toml`` if present
    cwd : where to look for ``graphmem.toml`` (defaults to the working directory)

    The Neo4j URI comes from, in order: a flag, ``NEO4J_URI``, the configuration file, the state file of a local
    Neo4j started by ``graphmem neo4j start``, the default ``bolt://127.0.0.1:7687``. Configured targets
    (``[targets.NAME]``, ``GRAPHMEM_TARGETS``) replace it, unless a flag gives the URI: then that one Neo4j alone
    (to reach one target's database directly).

    Raises ConfigError for an unreadable or malformed configuration file, an unknown table or field (naming the
    closest known one), or a wrongly typed or out-of-range value (naming where it came from and what it must be).
    """
    env = os.environ if environ is None else environ
    path = _config_path(env, config_path, cwd)
    config = _read_config(path) if path else {}
    given = {k: v for k, v in flags.items() if v is not None}
    if "uri" in given:
        given["uri_source"] = "flag"
    sources = (InitSettingsSource(Settings, given), EnvironmentSource(Settings, env),
               ConfigFileSource(Settings, path, config), DefaultsSource(Settings, env))
    try:
        settings = Settings(_build_sources=(sources, given))
    except ValidationError as e:
        raise _refusal(e, given, env, path) from None
    if "uri" not in settings.model_fields_set:
        state_uri = _local_state_uri(settings.state_file)
        if state_uri is not None:
            settings = settings.model_copy(update={"uri": state_uri, "uri_source": "local-state"})
    if "uri" in given and settings.targets:  # the --uri flag names one Neo4j: the command works on it alone
        settings = settings.model_copy(update={"targets": {}})
    return settings
