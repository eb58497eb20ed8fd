"""The report of the comparison with people: both tables, the verdicts of the pre-registered hypotheses, the
claims found, as text lines or a JSON object (docs/validation.md)."""

from __future__ import annotations

import math
from typing import Any

from graphmem.validation.beliefs import DECAY, ConditionResult
from graphmem.validation.study import PERFECT, PeopleStudy

__all__ = ["Verdicts", "report_lines", "report_object"]


FEW_GAMES = 5
"""Below this many games with decisions, the report says its figures only show that the comparison runs."""


def _figure(value: float | None, digits: int = 3) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    return [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows)]


class Verdicts:
    """The pre-registered hypotheses (docs/validation.md#hypotheses-and-the-success-rule) for the claim profile.

    h1 : bool, the claim profile's log-loss below perfect's with the interval below 0, and not above the fitted
        decay's; h2 : bool or None, its expected vote-claim error inside people's exact interval (None: no claim)
    """

    def __init__(self, study: PeopleStudy, profile: str) -> None:
        by_name = {r.name: r for r in study.beliefs}
        claim, decay = by_name.get(profile), by_name.get(DECAY)
        self.profile = profile
        self.h1 = (claim is not None and decay is not None and claim.high is not None and claim.high < 0
                   and claim.log_loss <= decay.log_loss)
        expected = study.claims.expected.get(profile, math.nan)
        self.h2: bool | None = (None if not study.claims.checked or math.isnan(expected)
                                else study.claims.low <= expected <= study.claims.high)


def _belief_rows(results: list[ConditionResult]) -> list[list[str]]:
    rows = []
    for r in results:
        interval = "-" if r.name == PERFECT or r.low is None else f"{r.low:+.3f} to {r.high:+.3f}"
        diff = "-" if r.name == PERFECT or r.difference is None else f"{r.difference:+.3f}"
        name = r.name
        if r.half_lives:
            low, high = min(r.half_lives), max(r.half_lives)
            name += f" (half-life {low:g} phases)" if low == high else f" (half-life {low:g}-{high:g} phases)"
        rows.append([name, _figure(r.log_loss), _figure(r.auc), diff, interval])
    return rows


def report_lines(study: PeopleStudy, claim_profile: str, corpus: str) -> list[str]:
    """The report as text lines (Markdown tables)."""
    cases = study.cases
    games_with = len({c.game for c in cases})
    evil = sum(c.y for c in cases)
    dev = "none" if not study.deviations else "; ".join(study.deviations)
    v = Verdicts(study, claim_profile)
    if study.decisions == "beliefs":
        what = (f"Beliefs: {len(cases)} stated beliefs of servants and Percival ({evil} on the evil side) in "
                f"{games_with} games")
    else:
        what = (f"Day votes: {len({(c.game, c.believer, c.now) for c in cases})} votes of people in {games_with} "
                f"games, {len(cases)} (voter, living candidate) pairs, {evil} voted for")
    lines = [f"graphmem checked against people: {len(study.games)} games ({corpus}), seed {study.seed}",
             f"pre-registered at commit {study.preregistration} (docs/validation.md#pre-registration); "
             f"deviations: {dev}", "",
             f"{what}; leave-one-game-out log-loss (lower is better), AUC, and the difference from perfect with "
             "its 95% bootstrap interval over games", ""]
    lines += _table(["condition", "log-loss", "AUC", "vs perfect", "95% interval"], _belief_rows(study.beliefs))
    if games_with < FEW_GAMES:
        lines += ["", f"Only {games_with} games with decisions: each game's model is fitted on {games_with - 1}, so "
                  "these figures show the comparison runs, not how graphmem compares (docs/validation.md#results)."]
    secondary = "" if study.decisions == "beliefs" else " (secondary: the hypotheses are about Avalon's beliefs)"
    lines += ["", f"H1 ({claim_profile} below perfect with the interval below 0, and not above the fitted decay): "
              f"{'met' if v.h1 else 'NOT met'}{secondary}", ""]
    claims = study.claims
    people = (f"people wrong in {claims.errors} ({_figure(claims.rate)}, exact 95% interval "
              f"{_figure(claims.low)}-{_figure(claims.high)})" if claims.checked else "none to check")
    lines.append(f"Vote claims: {len(claims.claims)} found by rule, {len(claims.checked)} checkable against the "
                 f"record; {people}")
    lines.append("")
    rows = [[p, _figure(e), "-" if not claims.checked or math.isnan(e) else
             ("yes" if claims.low <= e <= claims.high else "no")] for p, e in claims.expected.items()]
    lines += _table(["profile", "graphmem's expected error", "inside people's interval"], rows)
    h2 = "no checkable claim" if v.h2 is None else ("met" if v.h2 else "NOT met")
    lines += ["", f"H2 ({claim_profile}'s expected error inside people's interval): {h2}{secondary}", "",
              "The claims (message id, speaker, subject, claimed / recorded):"]
    for c in claims.claims:
        check = "not checkable" if not c.checkable else ("WRONG" if c.wrong else "right")
        lines.append(f"- {c.game} {c.message} {c.speaker}: {c.subject} {c.claimed} / {c.recorded or '-'} ({check}): "
                     f"{c.text!r}")
    lines += ["", f"took {study.seconds:.0f} s"]
    return lines


def report_object(study: PeopleStudy, claim_profile: str) -> dict[str, Any]:
    """The report as a JSON-ready object."""
    v = Verdicts(study, claim_profile)
    return {
        "games": study.games, "seed": study.seed, "profiles": study.profiles,
        "preregistration": study.preregistration, "deviations": list(study.deviations),
        "decisions": study.decisions,
        "beliefs": {"n": len(study.cases), "evil": sum(c.y for c in study.cases),
                    "conditions": [{"name": r.name, "log_loss": r.log_loss, "auc": None if math.isnan(r.auc) else r.auc,
                                    "difference": r.difference, "low": r.low, "high": r.high,
                                    "half_lives": r.half_lives} for r in study.beliefs]},
        "claims": {"found": len(study.claims.claims), "checked": len(study.claims.checked),
                   "errors": study.claims.errors, "rate": study.claims.rate if study.claims.checked else None,
                   "low": study.claims.low if study.claims.checked else None,
                   "high": study.claims.high if study.claims.checked else None,
                   "expected": {p: None if math.isnan(e) else e for p, e in study.claims.expected.items()},
                   "list": [{"game": c.game, "message": c.message, "speaker": c.speaker, "subject": c.subject,
                             "claimed": c.claimed, "recorded": c.recorded, "text": c.text} for c in study.claims.claims]},
        "verdicts": {"profile": claim_profile, "h1": v.h1, "h2": v.h2},
        "seconds": study.seconds,
    }
