"""The analysis queries: every ``.cypher`` file under ``cypher/analysis/``, named by its path there.

``who_told_whom`` is ``cypher/analysis/who_told_whom.cypher``, loaded through the one loader of
:mod:`graphmem.store.queries` (so it works from a checkout and from an installed wheel).
"""

from __future__ import annotations

import textwrap

from graphmem.errors import UnknownQuery, closest, did_you_mean
from graphmem.store.queries import Query, load, query_names

PREFIX = "analysis/"


SCOPES = ("game", "series")
"""What an analysis query is about, named by its one required scope parameter: one game (``-p game=G``), or a series
of games (``-p series=NAME``, docs/queries.md#series-of-games)."""


def analysis_query_names(scope: str | None = None) -> tuple[str, ...]:
    """The names of the analysis queries, sorted (``accusation_network``, ..., ``who_told_whom``); with ``scope``
    ("game" or "series", :data:`SCOPES`) only those that take that parameter."""
    names = tuple(name[len(PREFIX):] for name in query_names() if name.startswith(PREFIX))
    if scope is None:
        return names
    return tuple(name for name in names if query_scope(load(PREFIX + name)) == scope)


def query_scope(query: Query) -> str:
    """"series" for a query that takes ``$series`` (a series of games), else "game"."""
    return "series" if any(param.name == "series" for param in query.params) else "game"


def suggestions(name: str, n: int = 3) -> list[str]:
    """Up to ``n`` analysis query names closest to ``name`` (difflib ratio >= 0.4), best first; names that contain
    ``name`` come first when none is close."""
    names = analysis_query_names()
    close = closest(name, names, n=n, cutoff=0.4)
    if not close:
        close = [candidate for candidate in names if name and name.lower() in candidate][:n]
    return close


def analysis_query(name: str) -> Query:
    """The analysis query ``name`` with its parsed header.

    Raises UnknownQuery (a usage error: exit 2) naming up to three close names and how to list them all.
    """
    if name not in analysis_query_names():
        hint = did_you_mean(suggestions(name))
        hint = f"; {hint}" if hint else ""
        raise UnknownQuery(f"no analysis query named '{name}'{hint} (`graphmem query --list` lists them)")
    return load(PREFIX + name)


def describe(query: Query, width: int = 100) -> str:
    """The documentation of ``query`` as ``graphmem query --list`` prints it: the name, the purpose wrapped to
    ``width``, one line per parameter (name, type, default or "required", doc) and the returned columns."""
    name = query.name[len(PREFIX):] if query.name.startswith(PREFIX) else query.name
    lines = [name]
    lines += textwrap.wrap(query.purpose, width=width, initial_indent="    ", subsequent_indent="    ")
    for param in query.params:
        default = "required" if param.required else f"default {param.default}"
        doc = f"  {param.doc}" if param.doc else ""
        lines.append(f"    -p {param.name}=<{param.type}>  ({default}){doc}")
    lines += textwrap.wrap("returns: " + ", ".join(query.returns), width=width, initial_indent="    ",
                           subsequent_indent="             ")
    return "\n".join(lines)
