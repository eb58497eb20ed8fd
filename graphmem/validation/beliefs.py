"""Predicting the beliefs people stated from the evidence in their memories (docs/validation.md#beliefs): one small
logistic model for every condition, leave-one-game-out log-loss and AUC, and the difference from ``perfect`` with a
bootstrap interval over games. Pure: the features come in, the figures go out.

Log-loss is the mean over beliefs of ``-(y ln p + (1 - y) ln(1 - p))`` (natural log; 0.693 is a coin flip). The
model: the four features of :data:`graphmem.validation.evidence.EVIDENCE_KINDS`, standardised with the training games' mean
and standard deviation, an intercept, scikit-learn's ``LogisticRegression`` with its default L2 penalty (C = 1),
solved by Newton-Cholesky.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from graphmem.validation.evidence import Item, decay_weights, weighted_sums

__all__ = ["HALF_LIVES", "BeliefCase", "ConditionResult", "bootstrap_difference", "evaluate"]

HALF_LIVES = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
"""The half-lives (phases) the single fitted decay chooses from, inside the training games of each fold."""

DECAY = "decay (fitted)"
"""The name of the condition whose half-life is fitted."""

_EPS = 1e-12


@dataclass(frozen=True)
class BeliefCase:
    """One stated belief with its evidence.

    game : str; believer, player : str; belief : str, the value stated; y : int, 1 for the hidden (evil) side
    now : int, the phase of the belief; features : {condition: tuple of 4 floats}
    record : tuple of Item, every item of the full record (for the fitted decay)
    """

    game: str
    believer: str
    player: str
    belief: str
    y: int
    now: int
    features: Mapping[str, tuple[float, ...]]
    record: tuple[Item, ...] = ()


@dataclass
class ConditionResult:
    """The figures of one condition over all predicted beliefs.

    name : str; log_loss : float, mean per belief; auc : float or NaN (one class only)
    losses : ndarray of shape (n_beliefs,), per belief, in the order of the cases
    half_lives : list of float, the half-life chosen in each fold (the fitted decay only)
    difference, low, high : float or None, the mean log-loss difference from ``perfect`` and its 95% interval
    """

    name: str
    log_loss: float
    auc: float
    losses: np.ndarray
    half_lives: list[float] = field(default_factory=list)
    difference: float | None = None
    low: float | None = None
    high: float | None = None


def _fit_predict(train_x: np.ndarray, train_y: np.ndarray, test_x: np.ndarray) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression

    if len(set(train_y.tolist())) < 2:  # one class only: predict its share (smoothed)
        share = (train_y.sum() + 0.5) / (len(train_y) + 1.0)
        return np.full(len(test_x), share)
    mean = train_x.mean(axis=0)
    sd = train_x.std(axis=0)
    sd[sd == 0] = 1.0
    model = LogisticRegression(C=1.0, solver="newton-cholesky")  # lbfgs finds the same optimum 7x slower
    model.fit((train_x - mean) / sd, train_y)
    return np.asarray(model.predict_proba((test_x - mean) / sd)[:, 1])


def log_losses(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Per-belief log-loss (natural log) of probabilities ``p`` for outcomes ``y``."""
    p = np.clip(p, _EPS, 1 - _EPS)
    return np.asarray(-(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _auc(y: np.ndarray, p: np.ndarray) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, p)) if len(set(y.tolist())) == 2 else math.nan


def _logo(x: np.ndarray, y: np.ndarray, of: np.ndarray, games: Sequence[str]) -> np.ndarray:
    """Leave-one-game-out predictions over ``games`` for features ``x`` of shape (n_beliefs, 4), outcomes ``y`` and
    the game of each belief ``of`` (beliefs of other games are neither fitted on nor predicted: NaN)."""
    p = np.full(len(y), np.nan)
    inside = np.isin(of, list(games))
    for game in games:
        test = of == game
        train = inside & ~test
        if test.any() and train.any():
            p[test] = _fit_predict(x[train], y[train], x[test])
    return p


def _decay_matrix(cases: Sequence[BeliefCase], half_life: float) -> np.ndarray:
    rows = []
    for case in cases:
        weights = decay_weights(case.record, case.now, half_life)
        rows.append(weighted_sums((i.kind, i.value, w) for i, w in zip(case.record, weights)))
    return np.array(rows, dtype=float)


def _fitted_decay(cases: Sequence[BeliefCase], y: np.ndarray, of: np.ndarray,
                  games: Sequence[str]) -> tuple[np.ndarray, list[float]]:
    """Leave-one-game-out predictions where each fold chooses its half-life by leave-one-game-out log-loss inside
    its training games (the first of the smallest, in HALF_LIVES' order)."""
    p = np.full(len(cases), np.nan)
    chosen: list[float] = []
    matrices = {h: _decay_matrix(cases, h) for h in HALF_LIVES}
    for game in games:
        test = of == game
        if not test.any():
            continue
        training = [g for g in games if g != game]
        inside = np.isin(of, training)
        best, best_loss = HALF_LIVES[-1], math.inf
        for h in HALF_LIVES:
            inner = _logo(matrices[h], y, of, training)
            loss = float(log_losses(y[inside], inner[inside]).mean())
            if loss < best_loss - 1e-12:
                best, best_loss = h, loss
        chosen.append(best)
        p[test] = _fit_predict(matrices[best][inside], y[inside], matrices[best][test])
    return p, chosen


def evaluate(cases: Sequence[BeliefCase], conditions: Sequence[str], *, baseline: str = "perfect",
             resamples: int = 2000, seed: int = 0) -> list[ConditionResult]:
    """Every condition's leave-one-game-out log-loss and AUC, and its difference from ``baseline`` with a 95%
    bootstrap interval over games (``resamples`` resamples, seeded). ``conditions`` names the keys of the cases'
    ``features``; :data:`DECAY` names the fitted decay over ``record``. Raises ValueError when fewer than two games
    have a case."""
    games = sorted({c.game for c in cases})
    if len(games) < 2:
        raise ValueError(f"leave-one-game-out needs the decisions of at least two games, got {len(games)}"
                         + (f" ({games[0]})" if games else "") + ": give more games")
    y = np.array([c.y for c in cases], dtype=float)
    of = np.array([c.game for c in cases])
    results = []
    for name in conditions:
        if name == DECAY:
            p, chosen = _fitted_decay(cases, y, of, games)
        else:
            p, chosen = _logo(np.array([c.features[name] for c in cases], dtype=float), y, of, games), []
        losses = log_losses(y, p)
        results.append(ConditionResult(name, float(losses.mean()), _auc(y, p), losses, chosen))
    base = next((r for r in results if r.name == baseline), None)
    if base is not None:
        for r in results:
            r.difference, r.low, r.high = bootstrap_difference(r.losses - base.losses, [c.game for c in cases],
                                                               resamples, seed)
    return results


def bootstrap_difference(differences: np.ndarray, games: Sequence[str], resamples: int,
                         seed: int) -> tuple[float, float, float]:
    """The mean of per-belief ``differences`` and its 95% percentile interval when games are resampled with
    replacement (``resamples`` times, numpy's default generator seeded with ``seed``): (mean, low, high)."""
    names = sorted(set(games))
    of = np.array(games)
    sums = np.array([differences[of == g].sum() for g in names])
    counts = np.array([(of == g).sum() for g in names], dtype=float)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(names), size=(resamples, len(names)))
    means = sums[picks].sum(axis=1) / counts[picks].sum(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(differences.mean()), float(low), float(high)
