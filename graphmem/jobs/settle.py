"""What follows an ingest (:meth:`graphmem.service.MemoryService.ingest`): each game stored from its log is decayed to
the end of the log (docs/model.md#forgetting) and marked complete, and each series a game joined is brought to its
present (:func:`graphmem.jobs.series.catch_up`). The ingest itself (:mod:`graphmem.ingest.pipeline`) writes the
memories; the jobs layer, which it may not import, runs what time then does to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import neo4j

from graphmem.jobs.decay import advance
from graphmem.jobs.series import catch_up
from graphmem.model.params import Parameters
from graphmem.store.writer import mark_complete

__all__ = ["Ingested", "settle_ingested"]


class Ingested(Protocol):
    """One game as an ingest reports it (:class:`graphmem.ingest.pipeline.GameSummary`)."""

    @property
    def game(self) -> str: ...

    @property
    def unchanged(self) -> bool: ...

    @property
    def decay_to(self) -> int | None: ...

    @property
    def series(self) -> str | None: ...


def settle_ingested(driver: neo4j.Driver, database: str | None, games: Sequence[Ingested], params: Parameters) -> None:
    """Decay each ingested game to ``decay_to`` (None: nothing to decay), mark each game whose log was written
    (not ``unchanged``) complete, then catch up every series one of them is in, once each, in the order met.
    Raises what :func:`graphmem.jobs.decay.advance` and :func:`graphmem.jobs.series.catch_up` raise."""
    for game in games:
        if game.decay_to is not None:
            advance(driver, database, game.game, game.decay_to, params)
        if not game.unchanged:
            mark_complete(driver, database, game.game)
    for name in dict.fromkeys(g.series for g in games if g.series is not None):
        catch_up(driver, database, name, params)
