"""The one loader of graphmem's Cypher: every query lives in its own ``.cypher`` file under ``cypher/``.

A query file starts with comment lines that document it (the idea of aiosql's named queries)::

    // Who told whom in a game, with the number of messages per day.
    // More lines of purpose are allowed.
    // @param game: STRING  the game id
    // @param day: INTEGER = null  only this day (null: every day)
    // @returns teller, listener, day, messages

The query's name is its path under ``cypher/`` without the extension (``analysis/who_told_whom``). Files come
from the installed package (``graphmem/_cypher``, force-included by the wheel build) or, in a checkout, from the
repository's ``cypher/`` directory. Texts are cached: each file is read once per process.

Labels and relationship types cannot be parameters; :func:`identifier` checks and backticks them.

**Fragments.** Cypher has no functions of its own, so an expression several queries compute lives once, as a
*fragment*: a file under ``cypher/fragments/`` holding one expression, documented like a query, whose
``$parameters`` stand for the caller's expressions. A query uses it as ``@NAME(arg, ...)`` (the arguments in the
order of the fragment's ``@param`` lines) and :func:`load` puts the fragment's expression in its place, each
``$parameter`` replaced by its argument (in parentheses unless a name), the whole in parentheses, so Neo4j and every
reader of :func:`load` see plain Cypher. The forgetting curve is one (``fragments/retention``: the Python home is
``graphmem.model.forgetting.retention``, and ``tests/integration/test_forgetting_copies.py`` holds the two equal on
values). Fragments are no queries: :func:`query_names` does not list them.

**Query plans.** Neo4j plans a query once and keeps the plan in its query cache, but discards it and plans again
when the statistics it was planned on (node counts, index selectivities) have moved past a threshold, checked at most
every 10 seconds and lowered over hours (``dbms.cypher.statistics_divergence_threshold``,
``dbms.cypher.min_replan_interval``). Planning recall's larger queries took up to 500 ms on the project machine, paid
by whichever recall came first after the statistics moved: after a game was stored or deleted, the next minute's
recalls after a write had a p95 of 55-90 ms against 17-23 ms once planned (owner of 1,000 memories, 100 recalls per
round; bench/README.md, "Recall latency while Neo4j warms up"). The queries a recall runs (``cypher/recall/*``) start
with ``CYPHER replan=skip``: Neo4j keeps their plan while the statistics change (a new plan still follows a change of
the schema or the plan's eviction). What those plans read hardly depends on the statistics: each query starts from a
unique key, a node id or an index (the candidates through the one it names, ``USING INDEX``) and expands from there.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import cast

if sys.version_info >= (3, 11):
    from typing import LiteralString
else:  # pragma: no cover
    from typing_extensions import LiteralString

from graphmem.errors import UnknownQuery, UnsafeIdentifier, closest, did_you_mean

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PARAM = re.compile(r"^@param\s+(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*:\s*(?P<type>[A-Z]+(?:<[A-Z]+>)?)"
                    r"(?:\s*=\s*(?P<default>\S+))?\s*(?P<doc>.*)$")
PARAM_TYPES = ("STRING", "INTEGER", "FLOAT", "BOOLEAN", "MAP", "LIST<STRING>", "LIST<INTEGER>", "LIST<FLOAT>",
               "LIST<MAP>")
FRAGMENT_PARAM_TYPES = (*PARAM_TYPES, "NODE")
"""A fragment's ``$parameters`` stand for the caller's expressions, which may also be a node (``@memory_row(m, ...)``)."""


@dataclass(frozen=True)
class QueryParam:
    """One documented ``$parameter`` of a query.

    name : str; type : one of PARAM_TYPES; required : bool (False when the header gives a default);
    default : the default as written in the header ("null", a number, a quoted string) or None; doc : str
    """

    name: str
    type: str
    required: bool
    default: str | None
    doc: str


@dataclass(frozen=True)
class Query:
    """A named Cypher query and its documentation.

    name : str, path under ``cypher/`` without ``.cypher``; text : LiteralString, the whole file;
    purpose : str, the header's prose; params : tuple of QueryParam; returns : tuple of column names
    """

    name: str
    text: LiteralString
    purpose: str
    params: tuple[QueryParam, ...]
    returns: tuple[str, ...]


def _checkout_root() -> Path:
    return Path(__file__).resolve().parents[2] / "cypher"


def query_root() -> Traversable:
    """Where the ``.cypher`` files are: the installed package's ``_cypher`` or the checkout's ``cypher/``."""
    packaged = resources.files("graphmem").joinpath("_cypher")
    if packaged.is_dir():
        return packaged
    return _checkout_root()


def _walk(root: Traversable, prefix: str = "") -> list[str]:
    names: list[str] = []
    for entry in root.iterdir():
        if entry.is_dir():
            names.extend(_walk(entry, f"{prefix}{entry.name}/"))
        elif entry.name.endswith(".cypher"):
            names.append(prefix + entry.name[: -len(".cypher")])
    return names


FRAGMENTS = "fragments"
_USE = re.compile(r"@(?P<name>[A-Za-z_][A-Za-z0-9_]*)\(")
_PLAIN = re.compile(r"^\$?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?$")  # a name, a parameter or n.key


@cache
def query_names() -> tuple[str, ...]:
    """Every query name, sorted (``analysis/who_told_whom``, ``ingest/write_memories``, ...); never a fragment."""
    return tuple(sorted(n for n in _walk(query_root()) if not n.startswith(FRAGMENTS + "/")))


@cache
def fragment_names() -> tuple[str, ...]:
    """Every fragment name, sorted (``retention``, ...): the files of ``cypher/fragments/`` without ``.cypher``."""
    folder = query_root().joinpath(FRAGMENTS)
    return tuple(sorted(_walk(folder))) if folder.is_dir() else ()


@cache
def fragment(name: str) -> Query:
    """The fragment called ``name``: ``text`` is its one expression (the comment lines dropped), ``params`` its
    ``$parameters`` in the order a use passes them. Raises UnknownQuery (naming the closest names) when there is none.
    """
    if name not in fragment_names():
        hint = did_you_mean(closest(name, fragment_names(), cutoff=0.5))
        raise UnknownQuery(f"no Cypher fragment named '{name}'" + (f"; {hint}" if hint else ""))
    raw = query_root().joinpath(FRAGMENTS).joinpath(name + ".cypher").read_text(encoding="utf-8")
    header = parse_header(f"{FRAGMENTS}/{name}", raw, FRAGMENT_PARAM_TYPES)
    body = " ".join(line.strip() for line in raw.splitlines() if line.strip() and not line.strip().startswith("//"))
    return Query(header.name, cast(LiteralString, body), header.purpose, header.params, header.returns)  # type: ignore[redundant-cast, unused-ignore]


def _arguments(origin: str, line: str, start: int) -> tuple[list[str], int]:
    """The comma-separated arguments of the use whose ``(`` ends just before ``start`` in ``line``, and the index
    after its ``)``. Commas inside brackets or quotes belong to an argument. Raises ValueError when it never closes."""
    args: list[str] = []
    depth, quote, begin = 0, "", start
    for i in range(start, len(line)):
        char = line[i]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}" and depth:
            depth -= 1
        elif char == "," and not depth:
            args.append(line[begin:i].strip())
            begin = i + 1
        elif char == ")":
            args.append(line[begin:i].strip())
            return args, i + 1
    raise ValueError(f"{origin}.cypher: a fragment's use is not closed on its line: {line.strip()!r}")


def _fill(part: Query, args: list[str]) -> str:
    """Fragment ``part``'s expression with each ``$parameter`` replaced by its argument (in parentheses unless a
    name)."""
    given = {p.name: a if _PLAIN.match(a) else f"({a})" for p, a in zip(part.params, args)}
    return re.sub(r"\$([A-Za-z_][A-Za-z0-9_]*)\b", lambda m: given.get(m[1], m[0]), part.text)


def expand(origin: str, text: str) -> str:
    """``text`` with every use ``@NAME(arg, ...)`` outside comment lines replaced by fragment ``NAME``'s expression
    (see "Fragments" above). origin : the query's name, for errors. Raises UnknownQuery for an unknown fragment and
    ValueError for a use with the wrong number of arguments or without its ``)`` on the same line."""
    lines = text.splitlines(keepends=True)
    for number, line in enumerate(lines):
        if line.lstrip().startswith("//"):
            continue
        while (use := _USE.search(line)) is not None:
            part = fragment(use["name"])
            args, end = _arguments(origin, line, use.end())
            if len(args) != len(part.params) or not all(args):
                raise ValueError(f"{origin}.cypher: line {number + 1}: @{use['name']} takes {len(part.params)} "
                                 f"arguments ({', '.join(p.name for p in part.params)}), got {line[use.start():end]!r}")
            line = f"{line[:use.start()]}({_fill(part, args)}){line[end:]}"
        lines[number] = line
    return "".join(lines)


def parse_header(name: str, text: str, types: tuple[str, ...] = PARAM_TYPES) -> Query:
    """Split a query file into documentation and text. Raises ValueError on a malformed ``@param`` line (one whose
    type is not in ``types``)."""
    purpose: list[str] = []
    params: list[QueryParam] = []
    returns: tuple[str, ...] = ()
    for raw in text.splitlines():
        line = raw.strip()
        if not line.startswith("//"):
            if line:
                break
            continue
        body = line[2:].strip()
        if body.startswith("@param"):
            match = _PARAM.match(body)
            if match is None or match["type"] not in types:
                raise ValueError(f"{name}.cypher: malformed header line {raw!r} (types: {', '.join(types)})")
            params.append(QueryParam(match["name"], match["type"], match["default"] is None,
                                     match["default"], match["doc"].strip()))
        elif body.startswith("@returns"):
            returns = tuple(c.strip() for c in body[len("@returns"):].split(",") if c.strip())
        elif body:
            purpose.append(body)
    return Query(name, cast(LiteralString, text), " ".join(purpose), tuple(params), returns)  # type: ignore[redundant-cast, unused-ignore]


@cache
def load(name: str) -> Query:
    """The query called ``name`` with its parsed header, its fragments expanded (see "Fragments" above).

    Raises UnknownQuery (naming the closest existing names) when no such file exists.
    """
    if name not in query_names():
        hint = did_you_mean(closest(name, query_names(), cutoff=0.5))
        hint = f"; {hint}" if hint else ""
        raise UnknownQuery(f"no query named '{name}'{hint}")
    *folders, stem = name.split("/")
    node = query_root()
    for folder in folders:
        node = node.joinpath(folder)
    node = node.joinpath(stem + ".cypher")
    return parse_header(name, expand(name, node.read_text(encoding="utf-8")))


def cypher(name: str) -> LiteralString:
    """The text of query ``name`` (see :func:`load`)."""
    return load(name).text


def body(name: str) -> LiteralString:
    """The statement of query ``name`` without its header: the leading comment lines and a ``CYPHER`` options line
    (see :func:`in_sequence`)."""
    lines = cypher(name).splitlines()
    start = 0
    while start < len(lines) and (not lines[start].strip() or lines[start].lstrip().startswith("//")):
        start += 1
    if start < len(lines) and lines[start].lstrip().upper().startswith("CYPHER "):
        start += 1
    return cast(LiteralString, "\n".join(lines[start:]))  # type: ignore[redundant-cast, unused-ignore]


@cache
def in_sequence(*names: str) -> LiteralString:
    """The queries ``names`` as one statement that runs them one after the other, in the order given: each body
    (:func:`body`) in a ``CALL () { }`` of its own, every column each returns returned together as one row
    (``CYPHER replan=skip`` first, as each recall query has it).

    Each query must return exactly one row, and no column name may be returned twice (ValueError: a query that
    returned none, or several rows, would drop or repeat the others'). Why one statement: a writing recall's
    transaction ran its move fence, its version raise and its write as three statements, each a round trip through
    the driver and a statement Neo4j sets up and tears down (bench/README.md, "CPU per writing recall").
    """
    columns = [column for name in names for column in load(name).returns]
    if not names or len(set(columns)) != len(columns):
        raise ValueError(f"queries {', '.join(names)} return the columns {', '.join(columns)}: each column once")
    calls = "".join(f"CALL () {{\n{body(name)}\n}}\n" for name in names)
    return cast(LiteralString, f"CYPHER replan=skip\n{calls}RETURN {', '.join(columns)}")  # type: ignore[redundant-cast, unused-ignore]


def identifier(name: str) -> LiteralString:
    """``name`` backticked for use as a label, relationship type or property key.

    Raises UnsafeIdentifier unless ``name`` matches ``^[A-Za-z_][A-Za-z0-9_]*$``.
    """
    if not isinstance(name, str) or not _IDENTIFIER.match(name):
        raise UnsafeIdentifier(f"unsafe Cypher identifier {name!r}: must match ^[A-Za-z_][A-Za-z0-9_]*$")
    return cast(LiteralString, f"`{name}`")  # type: ignore[redundant-cast, unused-ignore]


def with_identifiers(text: LiteralString, **names: str) -> LiteralString:
    """``text`` with each ``{key}`` replaced by the checked, backticked identifier ``names[key]``.

    Only for labels, relationship types, property keys and index names, which Cypher cannot take as parameters;
    values always go as parameters. Raises UnsafeIdentifier for a hostile name.
    """
    result: str = text
    for key, name in names.items():
        result = result.replace("{" + key + "}", identifier(name))
    return cast(LiteralString, result)  # type: ignore[redundant-cast, unused-ignore]
