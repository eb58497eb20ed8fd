"""``graphmem init``: create the schema (constraints, range, full-text and vector indexes)."""

from __future__ import annotations

import json
from typing import Any

import click

from graphmem.cli import memory_targets


@click.command("init")
@click.option("--timeout", default=300, show_default=True, help="Seconds to wait for indexes to come ONLINE.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def init(ctx: click.Context, timeout: int, as_json: bool) -> None:
    """Create every constraint and index graphmem needs and wait until they are ONLINE.

    Checks that the server is Neo4j 5.26 or later. Running it again changes nothing. A database written by an
    earlier graphmem is upgraded: an outdated full-text index is rebuilt, missing scope tokens are backfilled.
    With several Neo4j targets ([targets] in graphmem.toml) each one is initialised.
    """
    out = []
    with memory_targets(ctx) as targets:
        for name, service in targets:
            memory = targets.checked(service)
            version = memory.server_version()
            report = memory.init(timeout)
            uri = memory.settings.uri
            data = {"uri": uri, "version": version, "created": list(report.created), "rebuilt": list(report.rebuilt),
                    "backfilled": report.backfilled, "constraints": report.constraints,
                    "dimensions": report.dimensions,
                    "indexes": [{"name": n, "type": t, "state": s} for n, t, s in report.indexes]}
            out.append({"target": name, **data} if targets.single is None else data)
            if not as_json:
                _print(version, uri, report, "" if targets.single is not None else f"target {name}: ")
    if as_json:
        click.echo(json.dumps(out[0] if len(out) == 1 else out, indent=2))


def _print(version: str, uri: str, report: Any, prefix: str) -> None:
    click.echo(f"{prefix}Neo4j {version} at {uri}")
    if report.created:
        click.echo(f"created {len(report.created)}: {', '.join(report.created)}")
    if report.rebuilt:
        click.echo(f"rebuilt with the current definition: {', '.join(report.rebuilt)}")
    if report.backfilled:
        click.echo(f"gave {report.backfilled} memories their full-text scope token")
    if not (report.created or report.rebuilt or report.backfilled):
        click.echo("schema already complete: nothing to create")
    click.echo(f"{report.constraints} constraints, {len(report.indexes)} indexes ONLINE "
               f"(vector index: {report.dimensions} dimensions, cosine)")
