"""The statistics of the comparison with people (graphmem.validation.beliefs): leave-one-game-out log-loss of one
logistic model per condition, the fitted single decay, the bootstrap over games."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from graphmem.validation.beliefs import DECAY, BeliefCase, bootstrap_difference, evaluate
from graphmem.validation.evidence import EVIDENCE_KINDS, Item, decay_weights, weighted_sums

COEF = {"quest": 1.8, "votes": 0.9, "talk": 0.8, "accusations": 1.2}


def cases(half_life: float | None, games: int = 14, per_game: int = 24, seed: int = 1) -> list[BeliefCase]:
    """Beliefs whose evil-probability follows the evidence weighted by ``0.5 ** (age / half_life)`` (or evenly)."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        for _ in range(per_game):
            now = rng.randint(4, 16)
            record = tuple(Item(rng.choice(EVIDENCE_KINDS), rng.choice((1.0, -1.0)), f"e{i}", i, rng.randint(0, now), 1.0)
                           for i in range(rng.randint(3, 12)))
            weights = [1.0] * len(record) if half_life is None else decay_weights(record, now, half_life)
            z = -0.2 + sum(COEF[i.kind] * i.value * w for i, w in zip(record, weights))
            y = int(rng.random() < 1 / (1 + math.exp(-z)))
            flat = weighted_sums((i.kind, i.value, 1.0) for i in record)
            out.append(BeliefCase(f"g{g}", "b", "x", "evil" if y else "good", y, now, {"perfect": flat}, record))
    return out


def test_a_known_decay_is_found_and_ranked_ahead_of_the_full_record() -> None:
    results = {r.name: r for r in evaluate(cases(half_life=1.0), ["perfect", DECAY], resamples=500)}
    decay = results[DECAY]
    assert decay.log_loss < results["perfect"].log_loss
    assert decay.high is not None and decay.high < 0  # the interval of the difference is below 0
    assert all(0.5 <= h <= 2.0 for h in decay.half_lives)  # each fold chose near the true half-life


def test_even_weighting_is_not_ranked_behind_a_decay() -> None:
    results = {r.name: r for r in evaluate(cases(half_life=None), ["perfect", DECAY], resamples=500)}
    decay = results[DECAY]
    assert decay.high is not None and decay.high >= 0  # not ranked ahead: the interval is not below 0
    assert min(decay.half_lives) >= 16  # the fitted decay stays close to even weighting


def test_every_belief_is_predicted_once_with_its_game_held_out() -> None:
    data = cases(half_life=None, games=4, per_game=10)
    [result] = evaluate(data, ["perfect"], resamples=100)
    assert result.losses.shape == (40,) and np.isfinite(result.losses).all()
    assert result.difference == 0.0 and result.low == result.high == 0.0  # perfect against itself
    assert 0.0 < result.log_loss < 1.5 and 0.0 <= result.auc <= 1.0


def test_the_bootstrap_is_seeded_and_resamples_whole_games() -> None:
    diff = np.array([1.0, 1.0, -1.0, -3.0])
    games = ["a", "a", "b", "b"]   # game a: mean +1, game b: mean -2
    first = bootstrap_difference(diff, games, 2000, seed=7)
    assert first == bootstrap_difference(diff, games, 2000, seed=7)
    mean, low, high = first
    assert mean == pytest.approx(-0.5)
    assert low == pytest.approx(-2.0) and high == pytest.approx(1.0)  # all a or all b at the extremes


def test_fewer_than_two_games_with_beliefs_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least two games, got 0"):
        evaluate([], ["perfect"])
    with pytest.raises(ValueError, match=r"at least two games, got 1 \(g0\)"):
        evaluate(cases(None, games=1), ["perfect"])
