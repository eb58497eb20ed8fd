"""``graphmem move``: move a game, or a whole series of games, to another Neo4j target with nothing lost
(docs/service.md#moving-a-game)."""

from __future__ import annotations

import json

import click

from graphmem.cli import UTF8_TEXT, memory_targets


@click.command("move")
@click.option("--game", type=UTF8_TEXT, help="The game to move (a game in no series; see `graphmem games`).")
@click.option("--series", type=UTF8_TEXT, help="The series of games to move, all its games together.")
@click.option("--to", "to", type=UTF8_TEXT, required=True, help="The target to move to (a [targets.NAME] name).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def move(ctx: click.Context, game: str | None, series: str | None, to: str, as_json: bool) -> None:
    """Move a game (--game) or a series (--series) to target --to, with nothing lost.

    Every node and relationship is copied in batches, the counts are compared on both targets, the copy becomes the
    game's place, and the game is deleted from its old target. Writes to the game are refused (HTTP 503, sent again
    by the engine) while it moves; reads go on. An interrupted move is finished by running the same command again.
    """
    with memory_targets(ctx) as targets:
        report = targets.move(to, game=game, series=series)
    if as_json:
        click.echo(json.dumps({"games": report.games, "series": report.series, "source": report.source,
                               "destination": report.destination, "copied": report.copied,
                               "counts": report.counts, "seconds": round(report.seconds, 3)}, indent=2))
        return
    what = f"series '{series}' ({len(report.games)} games)" if series else f"game '{game}'"
    if report.source == report.destination:
        click.echo(f"{what} is on target '{to}' already: nothing moved")
        return
    if not report.copied:
        click.echo(f"{what} had arrived on target '{to}'; its copy on '{report.source}' is deleted now")
        return
    nodes = ", ".join(f"{n} {key[5:]}" for key, n in report.counts.items() if key.startswith("node:"))
    edges = sum(n for key, n in report.counts.items() if key.startswith("relationship:"))
    click.echo(f"moved {what} from target '{report.source}' to '{report.destination}' in {report.seconds:.1f} s, "
               f"the same counts on both: {edges} relationships; nodes by label: {nodes}")
