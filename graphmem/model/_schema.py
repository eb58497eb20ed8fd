"""Declarative field specifications for parameter files: allowed ranges, validation, merging.

A frozen dataclass declares each field's allowed values in its metadata (``field(metadata=spec(...))``);
:func:`build` checks a parsed TOML table against those declarations and constructs the dataclass. Every
rejection is a :class:`~graphmem.errors.ConfigError` whose message names the file, the dotted field and the
allowed values, e.g. ``graphmem.toml: field 'profiles.mine.retrieval_threshold' must be a number in [0, 0.4),
got 0.5``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields, is_dataclass
from types import MappingProxyType
from typing import Any, TypeVar, Union

from graphmem.errors import ConfigError

T = TypeVar("T")


def _fmt(x: float) -> str:
    return "inf" if math.isinf(x) else f"{x:g}"


def _fail(source: str, path: str, expected: str, got: Any) -> ConfigError:
    return ConfigError(f"{source}: field '{path}' must be {expected}, got {got!r}")


@dataclass(frozen=True)
class Num:
    """A number in a range; ``integer`` demands an int (TOML ``4``, not ``4.0``)."""

    lo: float
    hi: float = math.inf
    lo_open: bool = False
    hi_open: bool = False
    integer: bool = False

    def describe(self) -> str:
        if self.integer:
            return f"an integer >= {_fmt(self.lo)}" if math.isinf(self.hi) else \
                f"an integer in {_fmt(self.lo)}..{_fmt(self.hi)}"
        left = "(" if self.lo_open else "["
        right = ")" if self.hi_open or math.isinf(self.hi) else "]"
        return f"a number in {left}{_fmt(self.lo)}, {_fmt(self.hi)}{right}"

    def parse(self, value: Any, path: str, source: str) -> Any:
        if isinstance(value, bool) or not isinstance(value, int if self.integer else (int, float)):
            raise _fail(source, path, self.describe(), value)
        x = float(value)
        above = x > self.lo if self.lo_open else x >= self.lo
        below = x < self.hi if self.hi_open else x <= self.hi
        if not (above and below):
            raise _fail(source, path, self.describe(), value)
        return int(value) if self.integer else x


@dataclass(frozen=True)
class Choice:
    """One of a fixed set of strings."""

    options: tuple[str, ...]

    def parse(self, value: Any, path: str, source: str) -> Any:
        if value not in self.options:
            raise _fail(source, path, "one of " + ", ".join(repr(o) for o in self.options), value)
        return value


@dataclass(frozen=True)
class Text:
    """A non-empty string (cross-field checks, such as a known profile name, happen after building)."""

    def parse(self, value: Any, path: str, source: str) -> Any:
        if not isinstance(value, str) or not value:
            raise _fail(source, path, "a non-empty string", value)
        return value


@dataclass(frozen=True)
class Names:
    """A list of non-empty strings, stored as a tuple."""

    def parse(self, value: Any, path: str, source: str) -> Any:
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise _fail(source, path, "a list of non-empty strings", value)
        return tuple(value)


@dataclass(frozen=True)
class Table:
    """A nested table built into the dataclass ``cls``."""

    cls: type

    def parse(self, value: Any, path: str, source: str) -> Any:
        return build(self.cls, value, path, source)


@dataclass(frozen=True)
class MapOf:
    """A table of name -> value; ``keys`` fixes the allowed names (None: any name)."""

    value: Spec
    keys: tuple[str, ...] | None = None

    def parse(self, value: Any, path: str, source: str) -> Any:
        if not isinstance(value, Mapping):
            raise _fail(source, path, "a table", value)
        if self.keys is not None:
            for key in value:
                if key not in self.keys:
                    raise _unknown(source, f"{path}.{key}", self.keys)
            for key in self.keys:
                if key not in value:
                    raise ConfigError(f"{source}: field '{path}.{key}' is missing")
        return MappingProxyType({k: self.value.parse(v, f"{path}.{k}", source) for k, v in value.items()})


Spec = Union[Num, Choice, Text, Names, Table, MapOf]


def spec(s: Spec) -> dict[str, Spec]:
    """Field metadata declaring the allowed values: ``x: float = field(metadata=spec(Num(0, 1)))``."""
    return {"spec": s}


def _unknown(source: str, path: str, allowed: tuple[str, ...] | list[str]) -> ConfigError:
    return ConfigError(f"{source}: unknown field '{path}' (allowed: {', '.join(allowed)})")


def build(cls: type[T], data: Any, path: str, source: str, **given: Any) -> T:
    """Validate the table ``data`` against the field specs of dataclass ``cls`` and construct it.

    path : the dotted name of the table (for messages); given : fields supplied by the caller, not the file.
    Fields with a default may be absent; every other field must be present; unknown fields are rejected.
    Raises ConfigError naming ``source``, the dotted field and its allowed values.
    """
    assert is_dataclass(cls)
    if not isinstance(data, Mapping):
        raise _fail(source, path, "a table", data)
    declared = [f for f in fields(cls) if "spec" in f.metadata]
    names = [f.name for f in declared]
    for key in data:
        if key not in names:
            raise _unknown(source, f"{path}.{key}", names)
    values = dict(given)
    for f in declared:
        if f.name in data:
            values[f.name] = f.metadata["spec"].parse(data[f.name], f"{path}.{f.name}", source)
        elif f.default is MISSING and f.default_factory is MISSING:
            raise ConfigError(f"{source}: field '{path}.{f.name}' is missing")
    return cls(**values)


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """A new table: ``base`` with ``override`` applied, tables merged recursively, other values replaced."""
    merged = dict(base)
    for key, value in override.items():
        old = merged.get(key)
        if isinstance(old, Mapping) and isinstance(value, Mapping):
            merged[key] = merge(old, value)
        else:
            merged[key] = value
    return merged

