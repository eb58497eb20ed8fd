"""``graphmem query``: run one documented analysis query of ``cypher/analysis/`` read-only.

``graphmem query --list`` prints every query with its documentation; ``graphmem query NAME -p game=G -p day=2
--format table|json|csv`` runs one. Parameters are typed from the query's header (exit 2 for a missing or ill-typed
one, or an unknown query name, with suggestions); an unknown game or series exits 1. Queries run in a READ transaction, so
Neo4j refuses any write.
"""

from __future__ import annotations

import csv
import io
import json
import math
from typing import Any

import click

from graphmem.cli import UTF8_TEXT, memory_targets
from graphmem.errors import UsageProblem

FORMATS = ("table", "json", "csv")


def json_safe(value: Any) -> Any:
    """``value`` with every infinite or NaN float replaced by None, so the output is strict JSON (the stability of a
    memory that never fades, the ``perfect`` profile's, is infinite)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list):
        return [json_safe(v) for v in value]
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    return value


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def table_cell(value: Any) -> str:
    """A value as a table shows it: empty for null, floats to 4 decimals, lists of scalars joined by ", " (a list
    of sentences, each ending in ".", "!" or "?", by a space, as prose), anything nested as compact JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) >= 1e6:
            return repr(value)
        return f"{value:.4f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.1f}"
    if isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value):
        sentences = bool(value) and all(isinstance(v, str) and v.rstrip().endswith((".", "!", "?")) for v in value)
        return (" " if sentences else ", ").join(table_cell(v) for v in value)
    if isinstance(value, (list, dict)):
        return _compact(value)
    return str(value)


def csv_cell(value: Any) -> str:
    """A value as CSV holds it: empty for null, true/false, full-precision numbers, lists and maps as JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return _compact(value)
    return str(value)


def render_table(title: str, columns: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
    """Print a rich table (one column per returned column; the caption counts the rows)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(soft_wrap=False)
    if not console.is_terminal:
        console = Console(soft_wrap=False, width=max(console.width, 160))
    table = Table(title=title, caption=f"{len(rows)} row{'s' if len(rows) != 1 else ''}", show_lines=False)
    for column in columns:
        numeric = bool(rows) and all(isinstance(r[column], (int, float)) and not isinstance(r[column], bool)
                                     for r in rows if r[column] is not None)
        table.add_column(column, justify="right" if numeric else "left", overflow="fold")
    for row in rows:
        table.add_row(*(table_cell(row[c]) for c in columns))
    console.print(table)


def render_csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    """CSV text with a header row (csv module, RFC 4180 quoting, \\r\\n line ends)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([csv_cell(row[c]) for c in columns])
    return buffer.getvalue()


def _list_queries() -> None:
    from graphmem.analysis import analysis_query, analysis_query_names, describe

    names = analysis_query_names()
    click.echo(f"{len(names)} analysis queries (run one with `graphmem query NAME -p game=GAME`, or -p series=NAME "
               "for those of a series of games):\n")
    click.echo("\n\n".join(describe(analysis_query(name)) for name in names))


@click.command("query")
@click.argument("name", type=UTF8_TEXT, required=False)
@click.option("--list", "list_queries", is_flag=True, help="List the analysis queries with their documentation.")
@click.option("-p", "--param", "assignments", type=UTF8_TEXT, multiple=True, metavar="KEY=VALUE",
              help="A query parameter, typed by the query's header (repeatable): -p game=G -p day=2.")
@click.option("--all", "every", is_flag=True,
              help="Run the query for every stored game (every series, for a query of a series) on every target, "
                   "leaving -p game (series) out: each game's rows in the query's order, games by id, each row "
                   "led by its game (and, with several targets, its target).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="table (rich), json (a list of objects; an infinite number, the stability of a memory that "
                   "never fades, is null) or csv (with a header row).")
@click.pass_context
def query(ctx: click.Context, name: str | None, list_queries: bool, assignments: tuple[str, ...], every: bool,
          fmt: str) -> None:
    """Run the analysis query NAME (a file of cypher/analysis/) read-only and print what it returns.

    Every query takes -p game=GAME, or -p series=NAME for those about a series of games (series_games,
    series_reputation), or --all to run it for every game (series); `graphmem query --list` shows each query's
    parameters, their types and defaults, and the columns it returns.
    """
    from graphmem.analysis import analysis_query, bind_params, parse_assignments
    from graphmem.analysis.catalog import query_scope

    if list_queries:
        _list_queries()
        return
    if name is None:
        raise UsageProblem("give a query NAME, or --list to see them")
    given = parse_assignments(assignments)
    chosen = analysis_query(name)
    scope = query_scope(chosen)
    if every and given.get(scope):
        raise UsageProblem(f"--all runs {name} for every {scope}: leave -p {scope}={given[scope]} out")
    params = bind_params(chosen, {**given, scope: "every"} if every else given)  # usage errors before connecting
    with memory_targets(ctx) as targets:
        result = targets.query_all(name, given) if every else targets.query(name, given)
    if fmt == "json":
        click.echo(json.dumps(json_safe(result.rows), indent=2, ensure_ascii=False, allow_nan=False))
    elif fmt == "csv":
        click.echo(render_csv(result.columns, result.rows), nl=False)
    else:
        shown = ", ".join(f"{k}={v}" for k, v in params.items() if v is not None)
        render_table(f"{name} ({shown})", result.columns, result.rows)
