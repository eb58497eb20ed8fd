"""Typing query parameters from ``key=value`` strings by the ``@param`` types of a query's header.

Types (:data:`graphmem.store.queries.PARAM_TYPES`): STRING as given; INTEGER (``-3``, ``12``; Neo4j's signed 64-bit
range, :data:`graphmem.errors.INTEGER_MIN` .. ``INTEGER_MAX``); FLOAT (finite);
BOOLEAN (true/false, yes/no, 1/0, any case); MAP (a JSON object); LIST<T> (a JSON array, or comma-separated
items: ``a,b,c``). ``null`` stands for no value and is accepted only for a parameter that has a default. A
header default is read as JSON (``null``, ``1``, ``0.5``, ``true``, ``"text"``, ``["a"]``), a bare word as a string.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.errors import INTEGER_MAX, INTEGER_MIN, UsageProblem
from graphmem.store.queries import Query, QueryParam

_INTEGER = re.compile(r"^[+-]?\d+$")
_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


def parse_assignments(items: Sequence[str]) -> dict[str, str]:
    """``["game=g1", "day=2"]`` -> ``{"game": "g1", "day": "2"}`` (split at the first ``=``).

    Raises UsageProblem for an item without ``=``, an empty name, or a name given twice.
    """
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageProblem(f"-p expects KEY=VALUE, got {item!r}")
        if key in out:
            raise UsageProblem(f"parameter '{key}' is given twice")
        out[key] = value
    return out


def _bad(param: QueryParam, raw: object, why: str = "") -> UsageProblem:
    extra = f" ({why})" if why else ""
    shown = repr(raw)
    shown = shown if len(shown) <= 80 else f"{shown[:60]}... ({len(str(raw))} characters)"
    return UsageProblem(f"parameter '{param.name}' expects {param.type}, got {shown}{extra}",
                        field=f"params.{param.name}")


def _scalar(param: QueryParam, kind: str, value: object, raw: object) -> Any:
    """``value`` (a str from the command line, or a JSON value) checked and converted to ``kind``."""
    if kind == "STRING":
        if isinstance(value, str):
            return value
        raise _bad(param, raw)
    if kind == "INTEGER":
        whole: int | None
        if isinstance(value, str) and _INTEGER.match(value.strip()):
            digits = value.strip().lstrip("+-").lstrip("0")
            whole = int(value) if len(digits) <= 19 else None  # int() refuses more than 4300 digits
        elif isinstance(value, int) and not isinstance(value, bool):
            whole = value
        else:
            raise _bad(param, raw, "a whole number")
        if whole is None or not INTEGER_MIN <= whole <= INTEGER_MAX:
            raise _bad(param, raw, f"a whole number from {INTEGER_MIN} to {INTEGER_MAX}, Neo4j's 64-bit range")
        return whole
    if kind == "FLOAT":
        if isinstance(value, str):
            try:
                number = float(value)
            except ValueError:
                raise _bad(param, raw, "a number") from None
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            raise _bad(param, raw, "a number")
        if not math.isfinite(number):
            raise _bad(param, raw, "a finite number")
        return number
    if kind == "BOOLEAN":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise _bad(param, raw, "true or false")
    if kind == "MAP":
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise _bad(param, raw, "a JSON object") from None
        if isinstance(value, dict):
            return value
        raise _bad(param, raw, "a JSON object")
    raise _bad(param, raw, f"unsupported type {kind}")  # pragma: no cover - PARAM_TYPES is closed


def coerce(param: QueryParam, raw: str) -> Any:
    """The value of ``param`` given on the command line as ``raw``.

    Raises UsageProblem naming the parameter and its expected type when ``raw`` is not of that type, or is
    ``null`` for a parameter without a default.
    """
    if raw.strip() == "null":
        if param.required:
            raise UsageProblem(f"parameter '{param.name}' ({param.type}) is required and cannot be null",
                               field=f"params.{param.name}")
        return None
    if param.type.startswith("LIST<"):
        item_type = param.type[len("LIST<"):-1]
        text = raw.strip()
        items: list[object]
        if text.startswith("["):
            try:
                parsed = json.loads(text)
            except ValueError:
                raise _bad(param, raw, "a JSON array or comma-separated items") from None
            if not isinstance(parsed, list):
                raise _bad(param, raw)
            items = parsed
        else:
            items = [part.strip() for part in text.split(",")] if text else []
        return [_scalar(param, item_type, item, raw) for item in items]
    return _scalar(param, param.type, raw, raw)


def default_value(param: QueryParam) -> Any:
    """The header's default of ``param`` as a typed value (None for ``null``).

    Raises UsageProblem when the header's default is not of the parameter's type (a bug in the query file).
    """
    assert param.default is not None
    try:
        value: Any = json.loads(param.default)
    except ValueError:
        value = param.default
    if value is None:
        return None
    if param.type.startswith("LIST<"):
        if not isinstance(value, list):
            raise _bad(param, param.default, "in the query header")
        return [_scalar(param, param.type[len("LIST<"):-1], item, param.default) for item in value]
    if param.type == "FLOAT" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return _scalar(param, param.type, value, param.default)


def bind_params(query: Query, given: Mapping[str, str]) -> dict[str, Any]:
    """Every parameter of ``query``, typed: the given ``{name: raw string}``, the header's defaults for the rest.

    Raises UsageProblem for a name the query does not take (listing the ones it does), a missing required
    parameter (with its type and documentation), or an ill-typed value (see :func:`coerce`).
    """
    by_name = {param.name: param for param in query.params}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(by_name) or "none"
        raise UsageProblem(f"query '{query.name.removeprefix('analysis/')}' has no parameter "
                           f"{', '.join(repr(u) for u in unknown)} (its parameters: {known})",
                           field=f"params.{unknown[0]}" if len(unknown) == 1 else None)
    bound: dict[str, Any] = {}
    for name, param in by_name.items():
        if name in given:
            bound[name] = coerce(param, given[name])
        elif param.required:
            doc = f": {param.doc}" if param.doc else ""
            # one message for both callers: the command line's -p, an HTTP body's "params"
            raise UsageProblem(f"missing parameter '{name}' ({param.type}{doc}); give it with -p {name}=VALUE on the "
                               f"command line, as \"params\": {{\"{name}\": ...}} over HTTP", field=f"params.{name}")
        else:
            bound[name] = default_value(param)
    return bound
