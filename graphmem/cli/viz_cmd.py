"""``graphmem viz told``, ``graphmem viz decay`` and ``graphmem viz trust``: pictures of a stored game or series.

The output kind follows the extension of ``--out``; the path is checked before anything else is done (exit 2 for
an unknown extension, a missing directory or one that cannot be written), and the file is written atomically.
``--day`` must be one of the game's days (exit 2 naming them otherwise).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from graphmem.cli import UTF8_TEXT, memory_service

OUT_HELP = "Output file; its extension chooses the kind: {kinds}."


@click.group("viz")
def viz() -> None:
    """Pictures: who told whom in a game, how a player's memories fade, who trusts whom over a series."""


@viz.command("told")
@click.option("--game", type=UTF8_TEXT, required=True, help="The game id.")
@click.option("--day", type=click.IntRange(min=0), default=None,
              help="Only the statements of this day (one of the game's days).")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help=OUT_HELP.format(kinds=".html (interactive, offline), .png, .svg, .graphml, .gexf (Gephi)"))
@click.pass_context
def told(ctx: click.Context, game: str, day: int | None, out: Path) -> None:
    """The who-told-whom graph of GAME: players coloured by role and shaped by fate, edges as wide as their number
    of messages, private and public statements told apart."""
    from graphmem.viz.outputs import TOLD_KINDS, check_output

    kind = check_output(out, TOLD_KINDS)
    with memory_service(ctx, game) as memory:
        graph = memory.told_graph(game, day)
    from graphmem.viz.html import render_html
    from graphmem.viz.static import draw_told

    _write_picture(graph, out, kind, render_html, draw_told)
    click.echo(f"wrote {out} ({kind}): {graph.number_of_nodes()} players, {graph.number_of_edges()} edges, "
               f"{graph.graph.get('messages', 0)} messages")


@viz.command("trust")
@click.option("--series", type=UTF8_TEXT, required=True, help="The series of games (its name).")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help=OUT_HELP.format(kinds=".html (offline, with the table of pairs), .png, .svg, .graphml, .gexf"))
@click.pass_context
def trust(ctx: click.Context, series: str, out: Path) -> None:
    """Who trusts whom over the games of SERIES: people filled by how often they were on the hidden side, an arrow
    from each observer to each person they judged, as wide as their judgements, coloured by how often they trusted
    them and labelled with how often they were right (the series_reputation query, docs/queries.md)."""
    from graphmem.viz.outputs import TRUST_KINDS, check_output

    kind = check_output(out, TRUST_KINDS)
    with memory_service(ctx, series=series) as memory:
        graph = memory.trust_graph(series)
    from graphmem.viz.trust import draw_trust, render_trust_html

    _write_picture(graph, out, kind, render_trust_html, draw_trust)
    click.echo(f"wrote {out} ({kind}): {graph.number_of_nodes()} people, {graph.number_of_edges()} pairs, "
               f"{graph.graph.get('judgements', 0)} judgements over {graph.graph.get('games', 0)} games")


@viz.command("decay")
@click.option("--game", type=UTF8_TEXT, required=True, help="The game id.")
@click.option("--player", type=UTF8_TEXT, required=True, help="The player whose memories to draw.")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help=OUT_HELP.format(kinds=".png, .svg"))
@click.pass_context
def decay(ctx: click.Context, game: str, player: str, out: Path) -> None:
    """Each memory of PLAYER in GAME: its strength over the phases, from encoding to the phase the game was
    decayed to, over the shaded clarity bands (CLEAR, FUZZY, VAGUE)."""
    from graphmem.viz.decay import draw_decay
    from graphmem.viz.outputs import DECAY_KINDS, check_output, write_atomically

    check_output(out, DECAY_KINDS)
    with memory_service(ctx, game) as memory:
        chart = memory.decay_chart(game, player)
    write_atomically(out, lambda tmp: draw_decay(chart, tmp))
    click.echo(f"wrote {out}: {len(chart.curves)} memories of {player}, phases up to {chart.decayed_to}")


def _write_picture(graph: Any, out: Path, kind: str, render_html: Callable[[Any], str],
                   draw: Callable[[Any, Path], object]) -> None:
    """Write ``graph`` to ``out`` as ``kind``: the interactive page (``render_html``), a picture (``draw``, png or
    svg) or a graph file (graphml, gexf), atomically (the file appears whole or not at all)."""
    from graphmem.viz.outputs import write_atomically

    if kind == "html":
        page = render_html(graph)

        def write_page(tmp: Path) -> None:
            tmp.write_text(page, encoding="utf-8")

        write_atomically(out, write_page)
    elif kind in ("png", "svg"):
        write_atomically(out, lambda tmp: draw(graph, tmp))
    else:
        from graphmem.viz.export import write_graph

        write_atomically(out, lambda tmp: write_graph(graph, tmp, kind))
