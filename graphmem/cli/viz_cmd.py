"""``graphmem viz told`` and ``graphmem viz decay``: pictures of a stored game.

The output kind follows the extension of ``--out``; the path is checked before anything else is done (exit 2 for
an unknown extension, a missing directory or one that cannot be written), and the file is written atomically.
``--day`` must be one of the game's days (exit 2 naming them otherwise).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from graphmem.cli import settings_of
from graphmem.errors import UsageProblem

if TYPE_CHECKING:
    import neo4j

OUT_HELP = "Output file; its extension chooses the kind: {kinds}."


@click.group("viz")
def viz() -> None:
    """Pictures of a game: who told whom, and how a player's memories fade."""


def check_day(driver: neo4j.Driver, database: str | None, game: str, day: int) -> None:
    """Return when ``day`` is a day of the stored ``game`` (one of its phases has it); raise UsageProblem (exit 2)
    naming the game's days otherwise, so an out-of-range --day never draws an empty picture."""
    from graphmem.analysis import analysis_query, run_read

    rows = run_read(driver, database, analysis_query("phases"), {"game": game}).rows
    days = sorted({int(row["day"]) for row in rows if row["day"] is not None})
    if day in days:
        return
    if not days:
        known = "it has no phases"
    elif days == list(range(days[0], days[-1] + 1)):
        known = f"its days are {days[0]} to {days[-1]}"
    else:
        known = f"its days are {', '.join(map(str, days))}"
    raise UsageProblem(f"--day {day} is not a day of game '{game}' ({known})")


@viz.command("told")
@click.option("--game", required=True, help="The game id.")
@click.option("--day", type=click.IntRange(min=0), default=None,
              help="Only the statements of this day (one of the game's days).")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help=OUT_HELP.format(kinds=".html (interactive, offline), .png, .svg, .graphml, .gexf (Gephi)"))
@click.pass_context
def told(ctx: click.Context, game: str, day: int | None, out: Path) -> None:
    """The who-told-whom graph of GAME: players coloured by role and shaped by fate, edges as wide as their number
    of messages, private and public statements told apart."""
    from graphmem.analysis import require_game
    from graphmem.store.connection import connected
    from graphmem.viz.outputs import TOLD_KINDS, check_output, write_atomically
    from graphmem.viz.told import fetch_told_graph

    kind = check_output(out, TOLD_KINDS)
    settings = settings_of(ctx)
    with connected(settings) as driver:
        require_game(driver, settings.database, game)
        if day is not None:
            check_day(driver, settings.database, game, day)
        graph = fetch_told_graph(driver, settings.database, game, day)
    if kind == "html":
        from graphmem.viz.html import render_html

        page = render_html(graph)

        def write_page(tmp: Path) -> None:
            tmp.write_text(page, encoding="utf-8")

        write_atomically(out, write_page)
    elif kind in ("png", "svg"):
        from graphmem.viz.static import draw_told

        write_atomically(out, lambda tmp: draw_told(graph, tmp))
    else:
        from graphmem.viz.export import write_graph

        write_atomically(out, lambda tmp: write_graph(graph, tmp, kind))
    click.echo(f"wrote {out} ({kind}): {graph.number_of_nodes()} players, {graph.number_of_edges()} edges, "
               f"{graph.graph.get('messages', 0)} messages")


@viz.command("decay")
@click.option("--game", required=True, help="The game id.")
@click.option("--player", required=True, help="The player whose memories to draw.")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help=OUT_HELP.format(kinds=".png, .svg"))
@click.pass_context
def decay(ctx: click.Context, game: str, player: str, out: Path) -> None:
    """Each memory of PLAYER in GAME: its strength over the phases, from encoding to the phase the game was
    decayed to, over the shaded clarity bands (CLEAR, FUZZY, VAGUE)."""
    from graphmem.model import load_parameters
    from graphmem.store.connection import connected
    from graphmem.viz.decay import draw_decay, fetch_decay_chart
    from graphmem.viz.outputs import DECAY_KINDS, check_output, write_atomically

    check_output(out, DECAY_KINDS)
    settings = settings_of(ctx)
    params = load_parameters(settings.config, str(settings.config_file or "<defaults>"))
    with connected(settings) as driver:
        chart = fetch_decay_chart(driver, settings.database, game, player, params)
    write_atomically(out, lambda tmp: draw_decay(chart, tmp))
    click.echo(f"wrote {out}: {len(chart.curves)} memories of {player}, phases up to {chart.decayed_to}")
