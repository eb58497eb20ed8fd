"""``graphmem init``: create the schema (constraints, range, full-text and vector indexes)."""

from __future__ import annotations

import json

import click

from graphmem.cli import memory_service, settings_of


@click.command("init")
@click.option("--timeout", default=300, show_default=True, help="Seconds to wait for indexes to come ONLINE.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def init(ctx: click.Context, timeout: int, as_json: bool) -> None:
    """Create every constraint and index graphmem needs and wait until they are ONLINE.

    Checks that the server is Neo4j 5.26 or later. Running it again changes nothing. A database written by an
    earlier graphmem is upgraded: an outdated full-text index is rebuilt, missing scope tokens are backfilled.
    """
    settings = settings_of(ctx)
    with memory_service(ctx) as memory:
        version = memory.server_version()
        report = memory.init(timeout)
    if as_json:
        click.echo(json.dumps({
            "uri": settings.uri, "version": version, "created": list(report.created),
            "rebuilt": list(report.rebuilt), "backfilled": report.backfilled,
            "constraints": report.constraints, "dimensions": report.dimensions,
            "indexes": [{"name": n, "type": t, "state": s} for n, t, s in report.indexes],
        }, indent=2))
        return
    click.echo(f"Neo4j {version} at {settings.uri}")
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
