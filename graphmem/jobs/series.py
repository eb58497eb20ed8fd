"""Time passing across a series of games (docs/model.md#series-of-games): the decay job brings the earlier games of a
series to the series' present.

A series lays its games on one time line (:class:`graphmem.model.series.SeriesClock`). Whenever one of its games moves
on (an ingest, a phase of a live game, ``phase advance``), :func:`catch_up` decays every other game of the series to
the phase that is now for it: past its end for an earlier game, by as many phases as the later games and the gaps
between them have lasted. So the memories of earlier games keep fading by the laws of docs/model.md#forgetting
(flashbulbs keep their floor, the ``perfect`` profile never fades), and a recall in a later game reads them as they
are now.
"""

from __future__ import annotations

import logging

import neo4j

from graphmem.jobs.decay import DecayReport, advance
from graphmem.model.params import Parameters
from graphmem.model.series import series_clock
from graphmem.store.series import series_games, series_of

__all__ = ["catch_up", "catch_up_game"]

log = logging.getLogger(__name__)


def catch_up(driver: neo4j.Driver, database: str | None, series: str, params: Parameters, *,
             batch_size: int = 10_000) -> list[DecayReport]:
    """Decay every game of ``series`` that is behind the series' present to it (see the module docstring).
    Idempotent: a series whose games are all at its present changes nothing. Returns the decay jobs run, in series
    order ([] for a series not stored)."""
    gap, games = series_games(driver, database, series)
    if gap is None or not games:
        return []
    clock = series_clock([g.last_phase for g in games], [g.decayed_to for g in games], gap)
    reports = []
    for i, phase in clock.behind():
        reports.append(advance(driver, database, games[i].game, phase, params, batch_size=batch_size,
                               past_end=None))
    if reports:
        log.info("series %s at series phase %d: %d earlier games decayed on", series, clock.now, len(reports))
    return reports


def catch_up_game(driver: neo4j.Driver, database: str | None, game: str, params: Parameters, *,
                  batch_size: int = 10_000) -> list[DecayReport]:
    """:func:`catch_up` for the series ``game`` belongs to ([] when it is in none)."""
    found = series_of(driver, database, game)
    return [] if found is None else catch_up(driver, database, found[0], params, batch_size=batch_size)
