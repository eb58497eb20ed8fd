"""``graphmem consolidate``, ``graphmem contradictions`` and ``graphmem forget``: the jobs that reshape one game's
memories (docs/jobs.md#contradictions, docs/model.md#lifecycle-states, docs/jobs.md#consolidation). Unknown games,
players and memories exit 1 naming them and listing what exists."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from graphmem.cli import UTF8_TEXT, memory_service, memory_targets
from graphmem.cli.query_cmd import json_safe

if TYPE_CHECKING:
    from graphmem.service import MemoryService

DETAIL_LINES = 20
"""Lines of detail the human-readable output shows (``--json`` has everything)."""


@contextmanager
def _job(ctx: click.Context, label: str, total: int | None, quiet: bool, game: str | None = None,
         series: str | None = None) -> Iterator[tuple[MemoryService, Callable[[str, int], None]]]:
    """The command's MemoryService (of the target of ``game`` or ``series``) and a per-owner progress callback (a bar
    on a terminal)."""
    with memory_service(ctx, game, series=series) as memory, _progress(label, quiet, total) as progress:
        yield memory, progress


@contextmanager
def _progress(label: str, quiet: bool, total: int | None = None) -> Iterator[Callable[[str, int], None]]:
    """A per-owner progress callback: a bar on a terminal (none when ``quiet``)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    show = sys.stderr.isatty() and not quiet
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  disable=not show, transient=True) as bar:
        task = bar.add_task(label, total=total)

        def progress(owner: str, n: int) -> None:
            bar.update(task, description=f"{label}: {owner}")
            bar.advance(task)

        yield progress


def _count(n: int, one: str, many: str) -> str:
    """"1 summary", "3 summaries"."""
    return f"{n} {one if n == 1 else many}"


def _short(text: str, width: int = 110) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width - 3] + "..."


@click.command("consolidate")
@click.option("--game", type=UTF8_TEXT, default=None, help="The game id.")
@click.option("--series", type=UTF8_TEXT, default=None, metavar="NAME",
              help="Instead of a game: summarise each person across the games of this series, in its latest game.")
@click.option("--player", type=UTF8_TEXT, default=None, help="Only this player's memories (default: every player's).")
@click.option("--min-games", type=click.IntRange(min=1), default=2, show_default=True,
              help="With --series: summarise a person only when the player remembers them from this many games.")
@click.option("--dry-run", is_flag=True, help="Report the summaries that would be written; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def consolidate(ctx: click.Context, game: str | None, series: str | None, player: str | None, min_games: int,
                dry_run: bool, as_json: bool) -> None:
    """Merge clusters of similar memories of each player into Summary memories (docs/jobs.md#consolidation).

    Live memories (active, warm, archived; not flashbulbs, not summaries, not in an open conflict) are clustered
    by embedding (average linkage, cosine distance below parameters.consolidation.distance_threshold); every
    cluster of min_cluster_size or more becomes one Summary, and its members become "consolidated".
    Running it again adds nothing.

    With --series NAME: for each player of the series' latest game and each other player there, what the player
    remembers of them over their games together (the roles revealed to them, their own reflections) becomes one
    Summary of the latest game: "Charlie was on the evil side in 5 of your 8 games together; ..."
    (docs/jobs.md#consolidation-across-a-series).
    """
    if (game is None) == (series is None):
        raise click.UsageError("give --game GAME or --series NAME (one of them)")
    if series is not None:
        _consolidate_series(ctx, series, player, min_games, dry_run, as_json)
        return
    assert game is not None
    with _job(ctx, "consolidating", None, as_json, game) as (memory, progress):
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
    for item in report.planned[:DETAIL_LINES]:
        click.echo(f"  {item['owner']}: {_short(item['text'])}")
    if len(report.planned) > DETAIL_LINES:
        click.echo(f"  ... and {len(report.planned) - DETAIL_LINES} more (--json lists them all)")


def _consolidate_series(ctx: click.Context, series: str, player: str | None, min_games: int, dry_run: bool,
                        as_json: bool) -> None:
    with _job(ctx, "summarising", None, as_json, series=series) as (memory, progress):
        report = memory.consolidate_series(series, player, dry_run=dry_run, min_games=min_games, progress=progress)
    if as_json:
        click.echo(json.dumps(json_safe(report.as_dict()), indent=2, allow_nan=False))
        return
    planned = f"{_count(report.summaries, 'summary', 'summaries')} of {_count(report.pairs, 'pair', 'pairs')}"
    # a re-run plans the same summaries and finds them stored (MERGE on their uid): it says so, not "wrote"
    done = (f"would write {planned}, {report.superseded} older would be superseded" if dry_run else
            f"{planned}: {report.created} created, {report.summaries - report.created} already stored, "
            f"{report.superseded} older superseded")
    click.echo(f"series {series}, latest game {report.game} (phase {report.phase}): {done}, in {report.seconds:.1f} s")
    for item in report.planned[:DETAIL_LINES]:
        click.echo(f"  {item['owner']} about {item['observed']}: {_short(item['text'], 140)}")
    if len(report.planned) > DETAIL_LINES:
        click.echo(f"  ... and {len(report.planned) - DETAIL_LINES} more (--json lists them all)")


@click.command("contradictions")
@click.option("--game", "games", type=UTF8_TEXT, multiple=True, help="The game id (repeat for several games).")
@click.option("--all-games", is_flag=True, help="Every stored game.")
@click.option("--player", type=UTF8_TEXT, default=None, help="Only this player's memories (default: every player's).")
@click.option("--dry-run", is_flag=True, help="Report the conflicts that would be written; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def contradictions(ctx: click.Context, games: tuple[str, ...], all_games: bool, player: str | None, dry_run: bool,
                   as_json: bool) -> None:
    """Find conflicting memories of each player and store them as Conflict nodes (docs/jobs.md#contradictions).

    Claims are compared exactly: roles (identity), votes per ballot round (a statement about a vote the player saw
    cast otherwise is a lie caught; votes of different rounds never conflict), stances (a speaker who trusted a
    player and later suspected them, or the other way round; two players telling one opposite things about a
    third); similar memories (cosine >= similarity.contradiction) are compared for role words and polarity.
    Identity conflicts stay open until the player witnesses a reveal of that role: then they are resolved and the
    wrong memory is tombstoned (never deleted). Running it again adds nothing and reopens nothing. Prints one
    line per game with the conflicts by kind; one game also lists the notable ones.
    """
    if not games and not all_games:
        raise click.UsageError("give --game GAME (one or more) or --all-games")
    with memory_targets(ctx) as targets, _progress("comparing", as_json) as progress:
        ids = list(games) + [g for g in (str(x["game"]) for x in targets.games()) if all_games and g not in games]
        reports = [targets.checked(targets.for_game(game)).contradictions(game, player, dry_run=dry_run,
                                                                          progress=progress) for game in ids]
    if as_json:
        if len(reports) == 1:
            click.echo(json.dumps(json_safe(reports[0].as_dict()), indent=2, allow_nan=False))
        else:
            totals: dict[str, int] = {}
            for r in reports:
                for kind, n in r.by_kind.items():
                    totals[kind] = totals.get(kind, 0) + n
            click.echo(json.dumps(json_safe({"games": [r.as_dict() for r in reports],
                                             "by_kind": dict(sorted(totals.items()))}), indent=2, allow_nan=False))
        return
    would = "would be " if dry_run else ""
    for report in reports:
        kinds = ", ".join(f"{kind} {n} ({', '.join(f'{s} {c}' for s, c in report.by_status.get(kind, {}).items())})"
                          for kind, n in report.by_kind.items()) or "none"
        click.echo(f"game {report.game} (phase {report.phase}): "
                   f"{_count(report.detected, 'conflict', 'conflicts')} ({kinds}), {report.new} new"
                   + ("" if dry_run else f" ({report.created} created)") + f", {report.open} open; "
                   f"{report.resolved} {would}resolved by a known truth, "
                   f"{_count(report.tombstoned, 'memory', 'memories')} {would}"
                   f"tombstoned, in {report.seconds:.1f} s")
    if len(reports) != 1:
        totals = {}
        for r in reports:
            for kind, n in r.by_kind.items():
                totals[kind] = totals.get(kind, 0) + n
        click.echo(f"{len(reports)} games: {sum(r.detected for r in reports)} conflicts ("
                   + (", ".join(f"{k} {n}" for k, n in sorted(totals.items())) or "none") + ")")
        return
    report = reports[0]
    notable = [c for c in report.conflicts if c.get("kind") != "temporal" or c.get("status") == "open"
               or c.get("losers")]
    for c in notable[:DETAIL_LINES]:
        resolution = f" -> {c['resolution']}" if c.get("resolution") else ""
        what = c.get("text") or c["reason"]
        click.echo(f"  {c['owner']}: {c.get('kind', 'identity')} {c['status']}{resolution}: {_short(what)}")
    if len(notable) > DETAIL_LINES:
        click.echo(f"  ... and {len(notable) - DETAIL_LINES} more (--json lists them all)")


@click.command("forget")
@click.option("--game", type=UTF8_TEXT, required=True, help="The game id.")
@click.option("--player", type=UTF8_TEXT, required=True, help="The player whose memory it is.")
@click.option("--memory", "memory", type=UTF8_TEXT, required=True, help="The memory's uid.")
@click.option("--reason", type=UTF8_TEXT, default=None, help="Why it is forgotten (default: \"forgotten on request\").")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def forget(ctx: click.Context, game: str, player: str, memory: str, reason: str | None, as_json: bool) -> None:
    """Tombstone one memory on request (docs/model.md#lifecycle-states): it is no longer recalled but is kept, with the
    reason and the phase, for audit. A memory that does not exist or belongs to another player exits 1."""
    with _job(ctx, "forgetting", None, True, game) as (service, _):
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
