"""``graphmem ingest``, ``graphmem games``, ``graphmem stats`` and ``graphmem delete``: game logs in, what is
stored, and a game out."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from graphmem.cli import UTF8_TEXT, memory_service, memory_targets
from graphmem.errors import counted


@click.command("ingest")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=UTF8_TEXT, default="auto", show_default=True,
              help="auto, graphmem (canonical JSONL) or an importer name: traitors-plomp, avalon-llm, avalon-nlu, "
                   "llmafia, werewolf-arena.")
@click.option("--skip-invalid", is_flag=True, help="Write the valid events of a file and list the rejected ones.")
@click.option("--batch-size", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Rows per write transaction.")
@click.option("--series", type=UTF8_TEXT, metavar="NAME", default=None,
              help="Every game joins this series of games (same people, memories carried from game to game), in the "
                   "order the logs are read, after the series' stored games.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_context
def ingest(ctx: click.Context, paths: tuple[Path, ...], fmt: str, skip_invalid: bool, batch_size: int,
           series: str | None, as_json: bool) -> None:
    """Ingest game logs: files, or folders of them (every game inside, in sub-folders too: a folder of plomp games,
    the Avalon corpora, a folder of LLMafia or Werewolf Arena games).

    Every file is validated first: with any invalid line nothing is written (exit 1) unless --skip-invalid.
    Ingesting the same log again changes nothing. A keyword an importer read as a near spelling of a known one
    (CONTINUE_PLAYINGNG as CONTINUE_PLAYING) is listed as "guessed: FILE: WHERE: read ... as ..." (and under
    "guesses" with --json).

    With --series NAME (or a "series" in a log's header) the games form a series of games played by the same people:
    a player remembers their earlier games, fading across the gap between games (docs/model.md#series-of-games).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from graphmem.importers import get_importer

    if fmt not in ("auto", "graphmem"):
        get_importer(fmt)  # raises UsageProblem listing the known formats
    show = sys.stderr.isatty() and not as_json
    with memory_targets(ctx) as memory, Progress(TextColumn("{task.description}"), BarColumn(),
                                                 MofNCompleteColumn(), TimeElapsedColumn(),
                                                 disable=not show, transient=True) as bar:
        task = bar.add_task("validating and embedding", total=None)

        def on_stage(description: str, total: int) -> None:
            bar.update(task, description=description, total=total, completed=0)

        def progress(stage: str, rows: int) -> None:
            bar.advance(task, rows)

        summary = memory.ingest(*paths, fmt=fmt, skip_invalid=skip_invalid, batch_size=batch_size,
                                progress=progress, on_stage=on_stage, series=series)
    if as_json:
        data = asdict(summary)
        data["memories_ingested"] = summary.memories_ingested
        data["memories_per_second"] = round(summary.memories_per_second, 1)
        click.echo(json.dumps(data, indent=2))
        return
    for line in summary.rejected:
        click.echo(f"rejected: {line}", err=True)
    for line in summary.guesses:
        click.echo(f"guessed: {line}", err=True)
    for name in dict.fromkeys(g.series for g in summary.per_game if g.series is not None):
        positions = sorted(g.series_position or 0 for g in summary.per_game if g.series == name)
        click.echo(f"series {name}: {counted(len(positions), 'game')} at "
                   f"position{'s' if len(positions) != 1 else ''} {_ranges(positions)}")
    unchanged = sum(1 for g in summary.per_game if g.unchanged)
    if unchanged:
        click.echo(f"{unchanged} of {summary.games} games already stored from the same logs: skipped")
    rate = (f"{summary.memories_per_second:.0f} memories/s of the {summary.games - unchanged} ingested; "
            if unchanged and unchanged < summary.games else
            "" if unchanged else f"{summary.memories_per_second:.0f} memories/s; ")
    click.echo(f"{counted(summary.games, 'game')}, {counted(summary.events, 'event')}, "
               f"{counted(summary.memories, 'memory', 'memories')}, {counted(summary.players, 'player')}; created "
               f"{counted(summary.nodes_created, 'node')} and {counted(summary.relationships_created, 'relationship')}"
               f" in {summary.seconds:.1f} s ({rate}embedding {counted(summary.texts_embedded, 'text')} took "
               f"{summary.embedding_seconds:.1f} s)")


def _ranges(numbers: list[int]) -> str:
    """1, 2, 3, 5 -> "1-3, 5"."""
    out: list[str] = []
    for n in numbers:
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


@click.command("delete")
@click.option("--game", type=UTF8_TEXT, required=True, help="The game id (see `graphmem games`).")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_context
def delete(ctx: click.Context, game: str, yes: bool) -> None:
    """Delete a stored game: every node and relationship of it (other games are untouched).

    For a game whose log changed: delete it, then ingest the new log. An interrupted delete is finished by running
    it again.
    """
    with memory_service(ctx, game) as memory:
        memory.require_game(game)
        if not yes:
            click.confirm(f"Delete game '{game}' and every memory of it?", abort=True, err=True)
        deleted = memory.delete(game)
    click.echo(f"deleted game '{game}': " + ", ".join(f"{n} {label}" for label, n in deleted.items() if n))


@click.command("games")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def games(ctx: click.Context, as_json: bool) -> None:
    """List the stored games.

    With several targets (docs/service.md) and one of them down, the games of the others are listed, a line on
    standard error names each target that did not answer, and the exit code is 3 (1 when no target answers).
    """
    with memory_targets(ctx) as targets:
        rows, down = targets.games_answering()
    try:
        _list_games(rows, as_json, bool(down))
    finally:
        for reason in down.values():
            click.echo(f"warning: {reason}: its games are not listed", err=True)
    if down:
        ctx.exit(GAMES_PARTIAL)


GAMES_PARTIAL = 3
"""The exit code of ``graphmem games`` when a target did not answer (the others' games listed)."""


def _list_games(rows: list[dict[str, Any]], as_json: bool, partial: bool) -> None:
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        click.echo("no games stored on the targets that answer" if partial else
                   "no games stored: ingest one with `graphmem ingest PATH`")
        return
    for r in rows:
        if r["live"]:
            state = "live (fed through MemoryService), ended" if r["complete"] else "live (fed through MemoryService)"
        else:
            state = "complete" if r["complete"] else "INCOMPLETE (run the ingest again)"
        series = f", game {r['series_position']} of series {r['series']}" if r.get("series") else ""
        target = f", on target {r['target']}" if r.get("target") else ""
        click.echo(f"{r['game']}  {r['players']} players, phases 0-{r['last_phase']}, decayed to "
                   f"{r['decayed_to']}, winner {r['winner'] or '-'}, {state}{series}{target}  ({r['title']})")


@click.command("stats")
@click.option("--game", type=UTF8_TEXT, required=True, help="The game id.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def stats(ctx: click.Context, game: str, as_json: bool) -> None:
    """Counts of one game: nodes by label, relationships by type, memories by source and state."""
    with memory_service(ctx, game) as memory:
        result = memory.stats(game)
    if as_json:
        click.echo(json.dumps(result, indent=2, sort_keys=True))
        return
    for section, counts in result.items():
        click.echo(f"{section}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
