"""``graphmem phase advance``: let a game's memories fade to a later phase (docs/model.md#forgetting,
docs/model.md#working-memory, docs/model.md#lifecycle-states).

``graphmem phase advance --game G`` moves the game one phase on; ``--to PHASE`` goes to that phase (the phase it
is at already changes nothing; an earlier one is a usage error, exit 2). An unknown game fails with exit 1 and
lists the stored games.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from graphmem.cli import UTF8_TEXT, memory_service
from graphmem.errors import INTEGER_MAX

if TYPE_CHECKING:
    from graphmem.jobs.decay import DecayReport


def summary(report: DecayReport) -> str:
    """One paragraph describing a decay run."""
    states = ", ".join(f"{n} {state}" for state, n in report.states.items())
    moved = (f"from phase {report.from_phase} to phase {report.to_phase}" if report.to_phase != report.from_phase
             else f"again to phase {report.to_phase} (no change)")
    return (f"Game {report.game} decayed {moved} on the {report.curve} curve: {report.memories} memories updated "
            f"({states}); {report.thoughts_active} of {report.thoughts} thoughts held in working memory. "
            f"Took {report.seconds:.2f} s.")


@click.group()
def phase() -> None:
    """Move a game through time: memories fade, working memory expires."""


@phase.command("advance")
@click.option("--game", type=UTF8_TEXT, required=True, help="Game id.")
@click.option("--to", "to_phase", type=click.IntRange(min=0, max=INTEGER_MAX), default=None,
              help="Phase to decay to (default: one phase after the game's current one).")
@click.option("--batch-size", type=click.IntRange(min=1, max=INTEGER_MAX), default=10_000, show_default=True,
              help="Memories per write transaction.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def advance_cmd(ctx: click.Context, game: str, to_phase: int | None, batch_size: int, as_json: bool) -> None:
    """Recompute strength, source confidence, lifecycle state and working memory of GAME at a phase."""
    with memory_service(ctx, game) as memory:
        report = memory.advance_phase(game, to_phase, batch_size=batch_size)
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2))
    else:
        click.echo(summary(report))
