"""``graphmem convert``: game logs of other shapes (or canonical ones) to canonical JSONL (docs/log-format.md,
docs/perception.md#imported-logs)."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from graphmem.cli import UTF8_TEXT
from graphmem.errors import InvalidGameLog, UsageProblem, counted
from graphmem.viz.outputs import check_output


def _expand(paths: tuple[Path, ...], fmt: str | None) -> list[tuple[Path, str]]:
    from graphmem.importers import discover

    return discover(list(paths), fmt)


def check_target(path: Path) -> None:
    """Return when a game log can be written to ``path``: its directory exists and takes a new file, and an
    existing ``path`` is a writable regular file. Raises UsageProblem (exit 2) naming the path and the reason.

    The checks are those of ``graphmem viz`` (:func:`graphmem.viz.outputs.check_output`); a game log may have any
    extension, so the path's own is the one kind allowed.
    """
    check_output(path, (path.suffix.lower().lstrip("."),))


def prepare_folder(folder: Path, games: int) -> None:
    """Create the output ``folder`` (with its parents) if missing and check that it takes new files.

    Raises UsageProblem (exit 2) when ``folder`` is a file, cannot be created, or cannot be written.
    """
    if folder.exists() and not folder.is_dir():
        raise UsageProblem(f"{folder}: exists and is not a folder (needed for {games} games)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageProblem(f"cannot create folder {folder}: {e.strerror or e}") from e
    check_target(folder / "GAME-ID.jsonl")



@click.command("convert")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--from", "fmt", type=UTF8_TEXT, default=None, metavar="FORMAT",
              help="Input format: an importer name (traitors-plomp, avalon-llm, avalon-nlu, llmafia, werewolf-arena) "
                   "or graphmem (default: detected per path).")
@click.option("-o", "--output", "output_arg", type=click.Path(), default=None,
              help="Output file for one game, or a folder (one GAME-ID.jsonl per game; created if missing). "
                   "Default: standard output (one game only; with --json nothing is written).")
@click.option("--skip-invalid", is_flag=True,
              help="Write the valid events of a game with bad events and list the rejected ones, instead of "
                   "writing nothing for that game.")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON report on standard output: per game its id, counts, output file, the keywords "
                   "read as near spellings (guesses) and the skipped events; the games not converted with "
                   "every problem.")
def convert(paths: tuple[Path, ...], fmt: str | None, output_arg: str | None, skip_invalid: bool,
            as_json: bool) -> None:
    """Convert game logs to canonical graphmem JSONL ("graphmem/1").

    PATHS are game logs (a plomp game folder or its plomp.json, an Avalon game's JSON file of avalon-llm or
    avalon-nlu, an LLMafia game folder, a Werewolf Arena game folder or its game_complete.json, a canonical
    .jsonl) or folders of them (every game inside, in sub-folders too, is converted).

    With one game, -o names the output file (or an existing folder to write GAME-ID.jsonl into); with several
    games, -o must be a folder. Every game is validated with the canonical rules; a game with problems is not
    written (unless --skip-invalid) and every problem is listed with its file, position, field and reason. A
    keyword read as a near spelling of a known one (CONTINUE_PLAYINGNG as CONTINUE_PLAYING) is converted and
    listed as "guessed: FILE: WHERE: read ... as ... (canonical line N)".

    Exit codes: 0 all written, 1 some game invalid or unreadable, 2 bad usage (e.g. an unknown --from, or an -o
    that cannot be written: checked before any game is read).
    """
    from graphmem.importers import load_game_log
    from graphmem.logs.writer import write_game_log

    output = Path(output_arg) if output_arg is not None else None
    games = _expand(paths, fmt)
    # Path() drops a trailing separator, so the folder intent of "-o out/" is read from the argument itself.
    to_folder = output is not None and (len(games) > 1 or output.is_dir()
                                        or (output_arg or "").endswith(("/", "\\")))
    if output is None and len(games) > 1 and not as_json:
        raise UsageProblem(f"{len(games)} games found: give -o FOLDER to write one file per game")
    if to_folder and output is not None:
        prepare_folder(output, len(games))
    elif output is not None:
        check_target(output)

    failures: list[str] = []
    report: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    written: dict[Path, Path] = {}
    for path, game_format in games:
        try:
            log = load_game_log(path, game_format, skip_invalid=skip_invalid)
        except InvalidGameLog as e:
            failures.append(str(e))
            refused.append({"path": str(path), "format": game_format,
                            "problems": [asdict(p) for p in e.problems]})
            continue
        target = output / f"{log.game}.jsonl" if to_folder and output is not None else output
        if target is not None:
            if target in written:
                failures.append(f"{path}: game id {log.game!r} also comes from {written[target]}; not written")
                refused.append({"path": str(path), "format": game_format, "problems": [
                    {"line": 0, "field": "", "reason": f"game id {log.game!r} also comes from {written[target]}"}]})
                continue
            try:
                write_game_log(log, target)
            except OSError as e:
                failures.append(f"{path}: cannot write {target}: {e.strerror or e}")
                refused.append({"path": str(path), "format": game_format, "problems": [
                    {"line": 0, "field": "", "reason": f"cannot write {target}: {e.strerror or e}"}]})
                continue
            written[target] = path
        elif not as_json:
            write_game_log(log, sys.stdout)
        days = max((p.day for p in log.phases), default=0)
        destination = str(target) if target is not None else "nothing written" if as_json else "stdout"
        report.append({"path": str(path), "format": game_format, "game": log.game, "events": len(log.events),
                       "phases": len(log.phases), "days": days, "output": str(target) if target else None,
                       "guesses": [asdict(g) for g in log.guesses], "skipped": [asdict(p) for p in log.rejected]})
        if as_json:
            continue
        click.echo(f"{path}: game {log.game}, {counted(len(log.events), 'event')}, "
                   f"{counted(len(log.phases), 'phase')}, {counted(days, 'day')} -> {destination}", err=True)
        for guess in log.guesses:
            click.echo(f"  guessed: {path}: {guess}", err=True)
        for problem in log.rejected:
            click.echo(f"  skipped: {path}: {problem}", err=True)
    if as_json:
        click.echo(json.dumps({"games": report, "not_converted": refused, "converted": len(report),
                               "total": len(games)}, indent=2, ensure_ascii=False))
        if failures:
            raise click.exceptions.Exit(1)
        return
    if failures:
        raise click.ClickException(f"{len(failures)} of {len(games)} game(s) not converted:\n" + "\n".join(failures))
