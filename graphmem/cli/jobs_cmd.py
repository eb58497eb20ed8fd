"""``graphmem consolidate``, ``graphmem contradictions`` and ``graphmem forget``: the jobs that reshape one game's
memories (SPEC 9, 10, 11). Unknown games, players and memories exit 1 naming them and listing what exists."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from graphmem.cli import memory_service
from graphmem.cli.query_cmd import json_safe

if TYPE_CHECKING:
    from graphmem.service import MemoryService

SHOWN = 20
"""Lines of detail the human-readable output shows (``--json`` has everything)."""


@contextmanager
def _job(ctx: click.Context, label: str, total: int | None,
         quiet: bool) -> Iterator[tuple[MemoryService, Callable[[str, int], None]]]:
    """The command's MemoryService and a per-owner progress callback (a bar on a terminal)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    show = sys.stderr.isatty() and not quiet
    with memory_service(ctx) as memory, Progress(TextColumn("{task.description}"), BarColumn(),
                                                 MofNCompleteColumn(), TimeElapsedColumn(),
                                                 disable=not show, transient=True) as bar:
        task = bar.add_task(label, total=total)

        def progress(owner: str, n: int) -> None:
            bar.update(task, description=f"{label}: {owner}")
            bar.advance(task)

        yield memory, progress


def _count(n: int, one: str, many: str) -> str:
    """"1 summary", "3 summaries"."""
    return f"{n} {one if n == 1 else many}"


def _short(text: str, width: int = 110) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width - 3] + "..."


@click.command("consolidate")
@click.option("--game", required=True, help="The game id.")
@click.option("--player", default=None, help="Only this player's memories (default: every player's).")
@click.option("--dry-run", is_flag=True, help="Report the summaries that would be written; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def consolidate(ctx: click.Context, game: str, player: str | None, dry_run: bool, as_json: bool) -> None:
    """Merge clusters of similar memories of each player into Summary memories (SPEC 11).

    Live memories (active, warm, archived; not flashbulbs, not summaries, not in an open conflict) are clustered
    by embedding (average linkage, cosine distance below parameters.consolidation.distance_threshold); every
    cluster of min_cluster_size or more becomes one Summary, and its members become "consolidated".
    Running it again adds nothing.
    """
    with _job(ctx, "consolidating", None, as_json) as (memory, progress):
        report = memory.consolidate(game, player, dry_run=dry_run, progress=progress)
    if as_json:
        click.echo(json.dumps(json_safe(report.as_dict()), indent=2, allow_nan=False))
        return
    verb = "would write" if dry_run else "wrote"
    click.echo(f"game {game} (phase {report.phase}): {verb} {_count(report.summaries, 'summary', 'summaries')} of "
               f"{_count(report.members, 'memory', 'memories')}, from "
               f"{_count(report.candidates, 'candidate', 'candidates')} of "
               f"{_count(len(report.owners), 'player', 'players')}"
               + ("" if dry_run else f"; {_count(report.created, 'summary', 'summaries')} created")
               + f" in {report.seconds:.1f} s")
    for item in report.planned[:SHOWN]:
        click.echo(f"  {item['owner']}: {_short(item['text'])}")
    if len(report.planned) > SHOWN:
        click.echo(f"  ... and {len(report.planned) - SHOWN} more (--json lists them all)")


@click.command("contradictions")
@click.option("--game", required=True, help="The game id.")
@click.option("--player", default=None, help="Only this player's memories (default: every player's).")
@click.option("--dry-run", is_flag=True, help="Report the conflicts that would be written; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def contradictions(ctx: click.Context, game: str, player: str | None, dry_run: bool, as_json: bool) -> None:
    """Find conflicting memories of each player and store them as Conflict nodes (SPEC 9).

    Claims on role and voted_for are compared exactly; similar memories (cosine >= similarity.contradiction)
    are compared for role words and polarity. Identity conflicts (a player's role) stay open until the player
    witnesses a reveal of that role: then they are resolved and the wrong memory is tombstoned (never deleted).
    Running it again adds nothing and reopens nothing.
    """
    with _job(ctx, "comparing", None, as_json) as (memory, progress):
        report = memory.contradictions(game, player, dry_run=dry_run, progress=progress)
    if as_json:
        click.echo(json.dumps(json_safe(report.as_dict()), indent=2, allow_nan=False))
        return
    kinds = ", ".join(f"{kind} {n}" for kind, n in report.by_kind.items()) or "none"
    would = "would be " if dry_run else ""
    click.echo(f"game {game} (phase {report.phase}): {_count(report.detected, 'conflict', 'conflicts')} ({kinds}), "
               f"{report.new} new"
               + ("" if dry_run else f" ({report.created} created)") + f", {report.open} open; "
               f"{report.resolved} {would}resolved by a known truth, "
               f"{_count(report.tombstoned, 'memory', 'memories')} {would}"
               f"tombstoned, in {report.seconds:.1f} s")
    notable = [c for c in report.conflicts if c.get("kind") != "temporal" or c.get("status") == "open"
               or c.get("losers")]
    for c in notable[:SHOWN]:
        resolution = f" -> {c['resolution']}" if c.get("resolution") else ""
        click.echo(f"  {c['owner']}: {c.get('kind', 'identity')} {c['status']}{resolution}: {_short(c['reason'])}")
    if len(notable) > SHOWN:
        click.echo(f"  ... and {len(notable) - SHOWN} more (--json lists them all)")


@click.command("forget")
@click.option("--game", required=True, help="The game id.")
@click.option("--player", required=True, help="The player whose memory it is.")
@click.option("--memory", "memory", required=True, help="The memory's uid.")
@click.option("--reason", default=None, help="Why it is forgotten (default: \"forgotten on request\").")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def forget(ctx: click.Context, game: str, player: str, memory: str, reason: str | None, as_json: bool) -> None:
    """Tombstone one memory on request (SPEC 10): it is no longer recalled but is kept, with the reason and the
    phase, for audit. A memory that does not exist or belongs to another player exits 1."""
    with _job(ctx, "forgetting", None, True) as (service, _):
        result = service.forget(game, player, memory, reason)
    if as_json:
        click.echo(json.dumps(json_safe(result.as_dict()), indent=2, allow_nan=False))
        return
    state = "tombstoned" if result.changed else "was already tombstoned"
    click.echo(f"{result.uid} {state} at phase {result.phase} ({result.reason}): {_short(result.text)}")
    if result.thoughts_dropped:
        click.echo(f"dropped {result.thoughts_dropped} working-memory item(s) pushed from it")
    if result.summary_dissolved:
        click.echo(f"dissolved the summary it was consolidated into ({result.summary_dissolved}); its other "
                   "memories are on their own again (recalled while their strength allows)")
