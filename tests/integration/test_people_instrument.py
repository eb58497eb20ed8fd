"""The comparison with people can see an effect (issue 39, docs/validation.md#can-the-instrument-see-an-effect):
synthetic Avalon games whose believers weigh the evidence by a known decay, replayed through graphmem, must rank
that decay ahead of the full record (``perfect``); games whose believers weigh everything evenly must not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphmem.logs.reader import read_game_log
from graphmem.validation.beliefs import DECAY
from graphmem.validation.study import run_study
from graphmem.validation.synthetic import write_synthetic_games

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

GAMES = 12


def figures(memory: Any, folder: Path, half_life: float | None) -> dict[str, Any]:
    logs = [read_game_log(p) for p in write_synthetic_games(folder, GAMES, half_life, seed=100)]
    study = run_study(memory, logs, [], seed=0, resamples=2000, workers=4)
    assert len(study.cases) > 250  # enough beliefs for the test to have power
    return {r.name: r for r in study.beliefs}


def test_believers_who_forget_are_told_apart_from_the_full_record(memory: Any, tmp_path: Path) -> None:
    results = figures(memory, tmp_path, half_life=1.0)
    decay = results[DECAY]
    assert decay.high is not None and decay.high < 0, decay  # ahead of perfect: the whole interval below 0
    assert decay.log_loss < results["perfect"].log_loss
    assert max(decay.half_lives) <= 4.0  # and the fitted half-life is near the believers' own (1 phase)


def test_believers_who_weigh_everything_evenly_are_not(memory: Any, tmp_path: Path) -> None:
    results = figures(memory, tmp_path, half_life=None)
    decay = results[DECAY]
    assert decay.high is not None and decay.high >= 0, decay  # not ahead of perfect
    assert results["perfect"].log_loss == pytest.approx(results["record"].log_loss)  # perfect forgets nothing
