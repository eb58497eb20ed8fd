"""``graphmem model``: look at the memory model without a database.

``graphmem model curve --profile analytical`` prints, phase by phase, the strength and clarity marker of four
memories of one profile: a mundane, a moderate and a salient episodic memory and a flashbulb. The profiles are the
shipped ones plus those of the configuration file (``[profiles.NAME]``).

``graphmem model findings`` runs the nine published findings of docs/model.md as seeded simulations over the model
(:mod:`graphmem.model.findings`) and prints graphmem's figure beside the published value and the target range, one
Markdown table row per finding, the table last (a hook reads its last 12 lines). Co-witness contamination needs the
embedding model: :func:`co_witness_accounts` stores the accounts of ``graphmem/model/co_witness.jsonl`` as graphmem
stores memories and embeds them.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import click

from graphmem.cli import UTF8_TEXT, embedder_of, settings_of
from graphmem.model.forgetting import CURVES

if TYPE_CHECKING:  # the rest is imported where it is used, so that `graphmem --help` loads no numpy nor driver
    from collections.abc import Sequence

    from graphmem.embedding import Embedder
    from graphmem.model.findings import Accounts, Finding
    from graphmem.model.params import Parameters, Profile
    from graphmem.store.records import MemoryRow

# Illustrative memories, not model parameters: (kind, salience at encoding, flashbulb).
EXAMPLES = (("mundane", 0.1, False), ("moderate", 0.5, False), ("salient", 0.9, False), ("flashbulb", 0.9, True))


@dataclass(frozen=True)
class CurvePoint:
    """One row of the curve: phase (int, since encoding), kind, strength in [0, 1], marker or None."""

    phase: int
    kind: str
    strength: float
    marker: str | None


def curve_points(profile: Profile, params: Parameters, phases: int, curve: str) -> list[CurvePoint]:
    """Strength and marker of each example memory at phases 0..``phases`` after encoding (n = 0, no recall)."""
    from graphmem.model.clarity import clarity_marker
    from graphmem.model.encoding import encoding_strength, stability
    from graphmem.model.flashbulb import strength_floor
    from graphmem.model.forgetting import strength_at
    from graphmem.model.vocabulary import MemoryType

    points = []
    for kind, sal, flashbulb in EXAMPLES:
        e0 = encoding_strength(sal, profile, flashbulb, params)
        s = stability(sal, profile, MemoryType.EPISODIC, flashbulb, params)
        floor = strength_floor(flashbulb, params)
        for t in range(phases + 1):
            m = strength_at(e0, 0, s, t, curve, floor)
            marker = clarity_marker(m, flashbulb, profile.retrieval_threshold, params)
            points.append(CurvePoint(t, kind, m, marker.value if marker else None))
    return points


def _table(points: list[CurvePoint], profile: Profile, curve: str) -> None:
    from rich.console import Console
    from rich.table import Table

    kinds = [k for k, _, _ in EXAMPLES]
    table = Table(title=f"profile {profile.name}, {curve} curve (strength and marker; '-' = not recalled)")
    table.add_column("phase", justify="right")
    for kind in kinds:
        table.add_column(kind, justify="right")
    by_phase: dict[int, dict[str, CurvePoint]] = {}
    for p in points:
        by_phase.setdefault(p.phase, {})[p.kind] = p
    for phase, row in sorted(by_phase.items()):
        table.add_row(str(phase), *(f"{row[k].strength:.3f} {row[k].marker or '-'}" for k in kinds))
    Console().print(table)


@click.group()
def model() -> None:
    """Inspect the memory model (no database needed).

    `model people` checks it against people playing Avalon, and needs Neo4j (docs/validation.md).
    """


@model.command("curve")
@click.option("--profile", "profile_name", type=UTF8_TEXT, default=None,
              help="Memory profile (default: the default profile).")
@click.option("--phases", type=click.IntRange(0, 1000), default=12, show_default=True,
              help="Phases after encoding to show.")
@click.option("--curve", type=click.Choice(CURVES), default=None, help="Forgetting curve (default: configured).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {phase, kind, strength, marker}.")
@click.pass_context
def curve_cmd(ctx: click.Context, profile_name: str | None, phases: int, curve: str | None, as_json: bool) -> None:
    """Strength and clarity marker, phase by phase, of a mundane (salience 0.1), moderate (0.5) and salient (0.9)
    episodic memory and a flashbulb, for one profile."""
    params = settings_of(ctx).parameters()
    profile = params.profile(profile_name or params.default_profile)
    points = curve_points(profile, params, phases, curve or params.curve)
    if as_json:
        click.echo(json.dumps([asdict(p) for p in points], indent=1))
    else:
        _table(points, profile, curve or params.curve)


def co_witness_accounts(embedder: Embedder, params: Parameters) -> tuple[Accounts, ...]:
    """The pairs of accounts of :data:`graphmem.model.findings.ACCOUNTS_LOG` as the witness stores them, with the
    cosine of their texts under ``embedder`` (the configured model; the shipped all-MiniLM-L6-v2 by default).

    Each pair is an event ``pairN`` (an observation or a vote the witness perceived) and a private statement
    ``pairN-told`` in which a co-witness tells the witness about it; the texts are what :func:`encode_game` embeds for
    the witness's two memories (``MemoryRow.embedded``: an observation in quotes and a vote as graphmem/ingest/texts.py
    words them, "Gwendolyn voted to banish Riley"; a statement with its speaker, "Fletcher: Casey, we gotta ..."),
    embedded as ingest embeds them. Raises EmbeddingError when the model cannot be loaded.
    """
    from graphmem.ingest.encode import encode_game
    from graphmem.logs.reader import read_game_log
    from graphmem.model.findings import ACCOUNTS_LOG, Accounts

    memories = encode_game(read_game_log(ACCOUNTS_LOG), params).memories

    def event_id(memory: MemoryRow) -> str:
        return memory.event.rsplit("/", 1)[-1]
    pairs = []
    for told in (m for m in memories if event_id(m).endswith("-told") and not m.own):  # in the log's order
        event = event_id(told).removesuffix("-told")
        seen = next(m for m in memories if m.owner == told.owner and event_id(m) == event)
        pairs.append((event, seen.embedded, told.embedded))
    vectors = embedder.encode([text for _, seen, told in pairs for text in (seen, told)])
    return tuple(Accounts(event, seen, told, float(vectors[2 * i] @ vectors[2 * i + 1]))
                 for i, (event, seen, told) in enumerate(pairs))


FINDING_COLUMNS = ("finding", "graphmem", "published", "target", "verdict")


def run_findings(params: Parameters | None, seed: int, accounts: Sequence[Accounts]) -> tuple[Finding, ...]:
    """:func:`graphmem.model.findings.run_findings`, imported when the command runs (the simulations' module took
    90 ms of every `graphmem --help`); a name of this module, which the model tests replace with a shared run."""
    from graphmem.model.findings import run_findings as run

    return run(params, seed, accounts)


def findings_table(findings: list[Finding] | tuple[Finding, ...]) -> list[str]:
    """The findings as the lines of a Markdown table (header, rule, one row per finding, columns padded), then one
    summary line: how many are inside their target range."""
    rows = [[f.phenomenon, f.figure, f.published, f.target, "inside" if f.inside else "OUTSIDE"] for f in findings]
    widths = [max(len(r[i]) for r in [list(FINDING_COLUMNS), *rows]) for i in range(len(FINDING_COLUMNS))]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    inside = sum(f.inside for f in findings)
    return [line(list(FINDING_COLUMNS)), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows),
            f"{inside} of {len(findings)} findings inside their target range"]


@model.command("findings")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the simulations' recalls.")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON list of {key, phenomenon, measure, published, target, figure, inside, values}.")
@click.pass_context
def findings_cmd(ctx: click.Context, seed: int, as_json: bool) -> None:
    """How the memory model fares on nine published findings about human memory (docs/model.md, "Fidelity").

    Each finding (the forgetting curve, the testing and spacing effects, flashbulb memories, detail decline,
    source amnesia, co-witness contamination, misattribution, working-memory capacity) runs as a seeded simulation
    over the model with the configured parameters (the shipped defaults unless graphmem.toml overrides them); the
    table shows graphmem's figure beside the published value and the target range, with a verdict per row. Takes
    a few seconds; no database needed, but the embedding model (co-witness contamination measures two accounts of one
    event as graphmem stores and embeds them). Exit code 0 whatever the verdicts.
    """
    from graphmem.embedding import settings_embedder

    settings = settings_of(ctx)
    params = settings.parameters()
    embedder = settings_embedder(settings, embedder_of(ctx))  # an in-process caller's, or the settings' model
    findings = run_findings(params, seed, co_witness_accounts(embedder, params))
    if as_json:
        click.echo(json.dumps([f.as_dict() for f in findings], indent=1))
        return
    origin = f"parameters of {settings.config_file}" if settings.config_file else "shipped default parameters"
    click.echo(f"graphmem's memory model on nine published findings about human memory: seeded simulations "
               f"(seed {seed}), {origin}")
    click.echo("")
    for text in findings_table(findings):
        click.echo(text)


def _people() -> click.Command:
    from graphmem.cli.people_cmd import people_cmd

    return people_cmd


model.add_command(_people())
