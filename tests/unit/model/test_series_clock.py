"""The clock of a series of games (docs/model.md#series-of-games): games laid end to end with a gap between them."""

from __future__ import annotations

import pytest

from graphmem.model.series import SeriesClock, series_clock


def test_games_start_after_the_previous_game_and_the_gap() -> None:
    clock = series_clock([5, 16, 3], [5, 16, 3], gap=10)
    assert clock.offsets == (0, 15, 41)
    assert clock.now == 44  # the last game at its end


def test_earlier_games_are_behind_by_what_the_later_games_and_the_gaps_lasted() -> None:
    # a new third game at its phase 0; the first two were decayed to their own ends at ingest
    clock = series_clock([5, 16, 0], [5, 16, 0], gap=10)
    assert clock.now == 41
    assert clock.phases_now() == (41, 26, 0)
    assert clock.behind() == [(0, 41), (1, 26)]


def test_a_game_decayed_further_moves_the_series_present_and_nothing_goes_back() -> None:
    clock = series_clock([5, 5], [100, 5], gap=0)  # the first game was advanced far past its end by hand
    assert clock.now == 100
    assert clock.phases_now() == (100, 95)
    assert clock.behind() == [(1, 95)]
    assert series_clock([5, 5], [5, 5], gap=0).behind() == [(0, 10)]


def test_an_empty_series_is_at_zero_and_bad_clocks_are_refused() -> None:
    assert series_clock([], [], gap=3).now == 0
    with pytest.raises(ValueError, match="gap"):
        SeriesClock((1,), (1,), -1)
    with pytest.raises(ValueError, match="one value per game"):
        SeriesClock((1, 2), (1,), 0)
