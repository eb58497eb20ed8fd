"""A player's memory strengths over phases, reconstructed from the stored closed-form state (docs/model.md#forgetting),
as a chart.

What the graph stores per memory: the encoding (``e0`` at ``t_enc``, stability ``s_enc``), the last reinforcement
(``e_ref`` at ``t_ref``, stability ``s``, access count ``n``, ``last_recalled``), and the flashbulb ``floor``.
What can be reconstructed from it, with the game's curve (:func:`graphmem.model.forgetting.strength_at`):

- from ``t_ref`` on: exact, ``max(floor, e_ref * R(t - t_ref, s))``;
- before ``t_ref`` for a memory never recalled (``t_ref == t_enc``): the same curve, exact;
- before ``t_ref`` for a memory recalled once (``n == 1``): exact, the encoding curve
  ``max(floor, e0 * R(t - t_enc, s_enc))``, then a jump up to ``e_ref`` at ``t_ref`` (the rehearsal);
- before ``t_ref`` for a memory recalled more than once: the earlier recalls (their phases and boosts) are
  overwritten, so only the encoding curve up to ``t_ref`` and the jump there can be drawn; that stretch is drawn
  dashed and marked ``exact=False``.

The chart shades the clarity bands of docs/model.md#cued-recall-which-memories-come-back: CLEAR >= 0.70, FUZZY >= 0.40,
VAGUE >= max(0.15, the player's RetrievalThreshold), and below that the memory is not recalled.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j

from graphmem.model.clarity import vague_floor
from graphmem.model.forgetting import strength_at
from graphmem.model.params import Parameters, resolve
from graphmem.viz.style import BAND_COLOURS


@dataclass(frozen=True)
class MemoryCurve:
    """One memory's strength over phases.

    memory : str, uid; label : str, a short text; flashbulb : bool
    phases : tuple of int and strengths : tuple of float in [0, 1], the same length; a rehearsal at phase t
        appears as two points at t (before and after the jump)
    rehearsal : int or None, the phase of the last reinforcement when it came after encoding (``t_ref``)
    exact : bool, False when the stretch before ``rehearsal`` leaves out earlier recalls (``n > 1``)
    """

    memory: str
    label: str
    flashbulb: bool
    phases: tuple[int, ...]
    strengths: tuple[float, ...]
    rehearsal: int | None
    exact: bool


def memory_curve(row: Mapping[str, Any], curve: str, until: int) -> MemoryCurve:
    """The curve of one memory from its encoding phase to ``until`` (or to its ``t_ref`` if that is later).

    row : a row of the ``player_memories`` analysis query (memory, text, flashbulb, floor, t_enc, e0, s_enc,
    e_ref, t_ref, s, n); curve : the game's forgetting curve, "exponential" or "power"; until : int, phase.
    """
    t_enc, t_ref = int(row["t_enc"]), int(row["t_ref"])
    floor = float(row.get("floor") or 0.0)
    e_ref, s = float(row["e_ref"]), float(row["s"])
    e0 = float(row["e0"] if row.get("e0") is not None else e_ref)
    s_enc = float(row["s_enc"] if row.get("s_enc") is not None else s)
    last = max(until, t_ref, t_enc)
    phases: list[int] = []
    strengths: list[float] = []
    for t in range(t_enc, last + 1):
        if t_ref > t_enc and t == t_ref:
            phases.append(t)
            strengths.append(strength_at(e0, t_enc, s_enc, t, curve, floor))
        if t >= t_ref:
            value = strength_at(e_ref, t_ref, s, t, curve, floor)
        else:
            value = strength_at(e0, t_enc, s_enc, t, curve, floor)
        phases.append(t)
        strengths.append(value)
    text = " ".join(str(row.get("text") or "").split())
    label = text if len(text) <= 60 else text[:57] + "..."
    rehearsed = t_ref > t_enc
    return MemoryCurve(str(row["memory"]), label, bool(row.get("flashbulb")), tuple(phases),
                       tuple(min(1.0, v) for v in strengths), t_ref if rehearsed else None,
                       not rehearsed or int(row.get("n") or 0) <= 1)


@dataclass(frozen=True)
class Bands:
    """Clarity bands (docs/model.md#cued-recall-which-memories-come-back): clear and fuzzy lower bounds, and the
    lowest recalled strength."""

    clear: float
    fuzzy: float
    vague: float


def clarity_bands(threshold: float, params: Parameters | None = None) -> Bands:
    """The bands for a player of RetrievalThreshold ``threshold``: CLEAR >= 0.70, FUZZY >= 0.40,
    VAGUE >= max(0.15, threshold) with the shipped parameters."""
    p = resolve(params)
    return Bands(p.clarity.clear, p.clarity.fuzzy, vague_floor(threshold, p))


@dataclass(frozen=True)
class DecayChart:
    """Everything the decay chart draws: the game and player, the phases' day labels, the curves and bands."""

    game: str
    player: str
    role: str
    profile: str
    curve: str
    decayed_to: int
    day_of_phase: dict[int, int]
    curves: tuple[MemoryCurve, ...]
    bands: Bands


def fetch_decay_chart(driver: neo4j.Driver, database: str | None, game: str, player: str,
                      params: Parameters | None = None) -> DecayChart:
    """Read one player's memories and the game's curve (``game_overview``, ``players``, ``player_memories``
    analysis queries) and reconstruct every memory's curve up to the phase the game was decayed to.

    Raises NotFound when the game or the player is not stored (listing the game's players).
    """
    from graphmem.analysis import analysis_query, run_read
    from graphmem.errors import NotFound
    from graphmem.store.games import require_game

    require_game(driver, database, game)
    overview = run_read(driver, database, analysis_query("game_overview"), {"game": game}).rows[0]
    players = run_read(driver, database, analysis_query("players"), {"game": game}).rows
    me = next((p for p in players if p["player"] == player), None)
    if me is None:
        names = ", ".join(str(p["player"]) for p in players) or "none"
        raise NotFound(f"no player '{player}' in game '{game}' (its players: {names})")
    rows = run_read(driver, database, analysis_query("player_memories"), {"game": game, "player": player}).rows
    phases = run_read(driver, database, analysis_query("phases"), {"game": game}).rows
    curve = str(overview["curve"] or resolve(params).curve)
    decayed_to = int(overview["decayed_to"] or 0)
    return DecayChart(game, player, str(me["role"]), str(me["profile"]), curve, decayed_to,
                      {int(r["phase"]): int(r["day"]) for r in phases},
                      tuple(memory_curve(r, curve, decayed_to) for r in rows),
                      clarity_bands(float(me["threshold"] or 0.0), params))


def _day_ticks(day_of_phase: Mapping[int, int], phases: Iterable[int]) -> tuple[list[int], list[str]]:
    """One tick at the first phase of each day."""
    seen: set[int] = set()
    ticks, labels = [], []
    for phase in sorted(phases):
        day = day_of_phase.get(phase)
        if day is not None and day not in seen:
            seen.add(day)
            ticks.append(phase)
            labels.append(f"day {day}")
    return ticks, labels


def draw_decay(chart: DecayChart, path: Path, dpi: int = 110) -> None:
    """Draw ``chart`` to ``path`` (png or svg by extension): one line per memory (flashbulbs red and thick, dashed
    where the reconstruction leaves out earlier recalls, a dot at each rehearsal jump) over the shaded clarity
    bands, phases on the x axis with the days above."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    figure = Figure(figsize=(12, 6.5))
    FigureCanvasAgg(figure)
    ax = figure.add_subplot(1, 1, 1)
    b = chart.bands
    first = min((c.phases[0] for c in chart.curves), default=0)
    last = max((c.phases[-1] for c in chart.curves), default=chart.decayed_to)
    last = max(last, first + 1)
    for low, high, name in ((b.clear, 1.0, "CLEAR"), (b.fuzzy, b.clear, "FUZZY"), (b.vague, b.fuzzy, "VAGUE"),
                            (0.0, b.vague, "forgotten")):
        ax.axhspan(low, high, color=BAND_COLOURS[name], alpha=0.7, zorder=0, linewidth=0)
        ax.text(last + 0.15, (low + high) / 2, name if name != "forgotten" else "not recalled", va="center",
                fontsize=9, color="#555555")
    for c in chart.curves:
        colour = "#c0392b" if c.flashbulb else "#2c5d8f"
        width, alpha = (2.4, 0.95) if c.flashbulb else (1.1, 0.55)
        if c.rehearsal is not None and not c.exact:
            cut = c.phases.index(c.rehearsal) + 1
            ax.plot(c.phases[:cut + 1], c.strengths[:cut + 1], color=colour, linewidth=width, alpha=alpha,
                    linestyle="--", zorder=2)
            ax.plot(c.phases[cut:], c.strengths[cut:], color=colour, linewidth=width, alpha=alpha, zorder=2)
        else:
            ax.plot(c.phases, c.strengths, color=colour, linewidth=width, alpha=alpha, zorder=2)
        if c.rehearsal is not None:
            after = c.phases.index(c.rehearsal) + 1
            ax.plot([c.rehearsal], [c.strengths[after]], marker="o", markersize=4, color=colour, zorder=3)
    ax.axhline(b.vague, color="#7f7f7f", linewidth=0.8, linestyle=":", zorder=1)
    ax.set_xlim(first, last)
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("phase")
    ax.set_ylabel("strength")
    ax.set_title(f"Memory strength of {chart.player} ({chart.role}, {chart.profile} profile), game {chart.game}\n"
                 f"{len(chart.curves)} memories, {chart.curve} forgetting curve, up to phase {chart.decayed_to}",
                 pad=22)
    ticks, labels = _day_ticks(chart.day_of_phase, range(first, last + 1))
    if ticks:
        top = ax.secondary_xaxis("top")
        top.set_xticks(ticks, labels=labels, fontsize=8)
    handles: Sequence[Any] = [
        Line2D([], [], color="#2c5d8f", linewidth=1.5, label="memory"),
        Line2D([], [], color="#c0392b", linewidth=2.4, label="flashbulb (floor 0.8)"),
        Line2D([], [], color="#2c5d8f", marker="o", linestyle="", label="rehearsal (recall) jump"),
        Line2D([], [], color="#2c5d8f", linestyle="--", label="before the last of several recalls (approximate)"),
        Patch(color=BAND_COLOURS["CLEAR"], label=f"CLEAR >= {b.clear:.2f}"),
        Patch(color=BAND_COLOURS["FUZZY"], label=f"FUZZY >= {b.fuzzy:.2f}"),
        Patch(color=BAND_COLOURS["VAGUE"], label=f"VAGUE >= {b.vague:.2f}"),
    ]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.08, 1.0), frameon=False, fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=dpi, format=path.suffix.lstrip(".").lower(), bbox_inches="tight")
