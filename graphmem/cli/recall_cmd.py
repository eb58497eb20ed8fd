"""``graphmem recall``: a player's memory context for a dialogue, as the prompt block of docs/prompt.md or JSON."""

from __future__ import annotations

import click

from graphmem.cli import UTF8_TEXT, memory_service
from graphmem.errors import INTEGER_MAX, UsageProblem
from graphmem.model.groups import RECALL_K_MAX


def participant_names(value: str | None) -> tuple[str, ...]:
    """The players of ``--with A,B`` (stripped, duplicates dropped, in order); () when the option is not given.

    Raises UsageProblem (exit 2) when a name is empty (``--with ""``, ``--with ","``, ``--with "A,,B"``).
    """
    if value is None:
        return ()
    names = [name.strip() for name in value.split(",")]
    if not all(names):
        raise UsageProblem(f"--with expects comma-separated player names, got {value!r} (an empty name)")
    return tuple(dict.fromkeys(names))


@click.command("recall")
@click.option("--game", type=UTF8_TEXT, required=True, help="The game id.")
@click.option("--player", type=UTF8_TEXT, required=True, help="Whose memory (a player's name).")
@click.option("--topic", type=UTF8_TEXT, default=None,
              help="What the dialogue is about; empty: the strongest memories come back.")
@click.option("--with", "with_", type=UTF8_TEXT, default=None, metavar="A,B",
              help="Comma-separated players in the dialogue: memories about them rank higher.")
@click.option("--at", type=int, default=None, metavar="PHASE",
              help="Recall as of a phase (0 .. the game's decayed phase). A look at a phase writes nothing, as "
                   "with --dry-run, the current phase included.")
@click.option("--k", type=click.IntRange(min=1, max=RECALL_K_MAX), default=None,
              help=f"How many memories (default 10, at most {RECALL_K_MAX}).")
@click.option("--seed", type=int, default=None, help="Seed of reconsolidation (default: the configured seed).")
@click.option("--dry-run", is_flag=True, help="Compute the same result and write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON instead of the prompt block.")
@click.pass_context
def recall(ctx: click.Context, game: str, player: str, topic: str | None, with_: str | None, at: int | None,
           k: int | None, seed: int | None, dry_run: bool, as_json: bool) -> None:
    """Recall what PLAYER remembers for a dialogue, and reconsolidate it (docs/model.md#recall-and-reconsolidation).

    Prints the prompt block an LLM agent reads (active thoughts, the vivid flashbulb, numbered memories with
    clarity markers and source labels). Recalling changes the memories it returns (rehearsal, fading details,
    misattribution), as remembering does; --dry-run shows the same result without writing it. A player with no
    recallable memory and no active thought gets an empty block (nothing on stdout).

    Exit codes: 1 for an unknown game, player or --with name (the message lists what exists); 2 for --at outside
    0 .. the game's decayed phase, an empty --with name, a --k outside 1..100, or text that is not valid UTF-8.
    """
    if at is not None and at < 0:
        raise UsageProblem(f"--at must be a phase of 0 or more, got {at}")
    if at is not None and at > INTEGER_MAX:
        # no game reaches this phase, and the Neo4j driver cannot send it (an OverflowError otherwise)
        raise UsageProblem(f"--at must be a phase of at most {INTEGER_MAX}, got {at}")
    participants = participant_names(with_)
    with memory_service(ctx, game) as memory:
        result = memory.recall(game, player, topic, participants=participants, at=at, k=k, seed=seed,
                               dry_run=dry_run)
    if as_json:
        click.echo(result.to_json())
        return
    block = result.prompt()
    if block:
        click.echo(block, nl=False)
    else:
        click.echo(f"{player} recalls nothing at phase {result.phase} (no recallable memory, no active thought)",
                   err=True)
    if result.dry_run and not dry_run:
        click.echo(f"(recalled as of phase {result.phase}, before the game's phase {result.decayed_to}: "
                   "nothing was written)", err=True)
