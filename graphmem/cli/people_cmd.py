"""``graphmem model people GAMES...``: graphmem's memory checked against people playing Avalon, the
pre-registered comparison of docs/validation.md (:mod:`graphmem.validation`)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from graphmem.cli import UTF8_TEXT, memory_service, settings_of

SHIPPED_PROFILES = ("balanced", "analytical", "intuitive", "emotional", "paranoid")
"""The shipped profiles but ``perfect`` (the control, always run)."""


@click.command("people")
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--profiles", type=UTF8_TEXT, default=",".join(SHIPPED_PROFILES), show_default=True,
              help="Comma-separated profiles to replay beside perfect (the first carries the claim: the default "
                   "profile by default).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the replays' recalls and the bootstrap.")
@click.option("--resamples", type=click.IntRange(100, 100_000), default=2000, show_default=True,
              help="Bootstrap resamples of the games.")
@click.option("--workers", type=click.IntRange(1, 16), default=4, show_default=True,
              help="Replays run at once (the result does not depend on it).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@click.pass_context
def people_cmd(ctx: click.Context, games: tuple[Path, ...], profiles: str, seed: int, resamples: int,
               workers: int, as_json: bool) -> None:
    """Does graphmem remember like the people who play these games? (docs/validation.md)

    GAMES are Avalon game logs with stated beliefs (files or folders: the Avalon-NLU games of people, see the
    README's Data section, or canonical logs with belief events), or Mafia games of people (LLMafia: their day
    votes are predicted instead). Each game is replayed in the configured Neo4j (with several targets, the first)
    once per profile and once on perfect, every message preceded by its writer's recall; the replays are deleted
    afterwards. Prints the beliefs table (leave-one-game-out log-loss and AUC of one logistic model per condition,
    the difference from perfect with a 95% bootstrap interval over games), the vote-claims table (people's error
    rate with its exact interval beside graphmem's expected error) and the verdicts of the pre-registered
    hypotheses. Exit code 0 whatever the verdicts; 2 when fewer than two games have decisions to predict.
    """
    from rich.console import Console

    from graphmem.errors import UsageProblem
    from graphmem.importers import discover, load_game_log
    from graphmem.validation.report import report_lines, report_object
    from graphmem.validation.study import run_study

    params = settings_of(ctx).parameters()
    chosen = [p.strip() for p in profiles.split(",") if p.strip()]
    for name in chosen:
        params.profile(name)  # an unknown profile is a usage error before anything runs
    if "perfect" in chosen:
        raise UsageProblem("perfect is the control and always runs: leave it out of --profiles")
    if not chosen:
        raise UsageProblem("--profiles needs at least one profile (the first carries the claim)")
    logs = [load_game_log(path, fmt) for path, fmt in discover(list(games))]
    console = Console(stderr=True)
    total = len(logs) * (len(chosen) + 1)
    done = 0
    with memory_service(ctx) as service, console.status(f"replaying: 0 of {total} replays done") as status:
        def on_replay(game: str, profile: str) -> None:
            nonlocal done
            done += 1
            status.update(f"replaying: {done} of {total} replays done ({game} on {profile} last)")
        try:
            study = run_study(service, logs, chosen, seed=seed, resamples=resamples, workers=workers,
                              on_replay=on_replay)
        except ValueError as e:
            raise UsageProblem(str(e)) from None
    corpus = ", ".join(sorted({log.imported_from for log in logs}))
    if as_json:
        click.echo(json.dumps(report_object(study, chosen[0]), indent=1))
    else:
        for line in report_lines(study, chosen[0], corpus):
            click.echo(line)
