"""A game being played: events arrive one at a time (or in small batches) from a game engine.

:class:`LiveGame` keeps what a live game needs between calls in the engine's process: the validator (the same rules
as a log file), the encoder's game state, and the embeddings of the game's memories (rumour chains look back at
the teller's earlier memories). Every batch is validated, encoded, embedded, linked and written in idempotent
batches, exactly as a log file would be; the decay job then brings the game to its newest phase.

If the engine's process restarts, reopen the game with the events it has already sent
(``MemoryService.start_game(header, history=...)``): replaying them writes nothing new, because every uid is
derived from the game, the owner and the event id.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import neo4j
import numpy as np

from graphmem.embedding import Embedder, Vectors
from graphmem.errors import InvalidGameLog
from graphmem.ingest.encode import Encoder, check_profiles
from graphmem.ingest.rumours import link_rumours
from graphmem.jobs.decay import advance
from graphmem.logs import GameLogValidator
from graphmem.logs.schema import GameHeader
from graphmem.model import Parameters
from graphmem.store.writer import WriteCounts, write_encoded_game

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BatchReport:
    """What one batch of live events did: events accepted, memories encoded, nodes and relationships created,
    and the phase the game was decayed to."""

    events: int
    memories: int
    nodes_created: int
    relationships_created: int
    phase: int


class LiveGame:
    """One game fed event by event (see the module docstring).

    header : GameHeader or a header object (validated; raises InvalidGameLog naming the field)
    params : the model parameters; embedder : the Embedder that embeds memory texts
    """

    def __init__(self, header: GameHeader | Mapping[str, Any], params: Parameters, embedder: Embedder) -> None:
        self.validator = GameLogValidator(header, source=f"game {dict(header).get('game', '?')}"
                                          if isinstance(header, Mapping) else f"game {header.game}")
        self.header = self.validator.header
        problems = check_profiles(self.validator.game_log(), params)
        if problems:
            raise InvalidGameLog(self.validator.source, problems)
        self.params = params
        self.embedder = embedder
        self.encoder = Encoder(self.header, params, imported_from="live")
        self.vectors: dict[str, Vectors] = {}
        self.order = 0
        self.decayed_to = 0

    @property
    def game(self) -> str:
        """The game id."""
        return self.header.game

    def add(self, driver: neo4j.Driver, database: str | None, events: Sequence[Mapping[str, Any]],
            *, batch_size: int = 1000) -> BatchReport:
        """Validate, encode and write ``events`` in order, then decay the game to its newest phase.

        Raises InvalidGameLog for the first invalid event, after writing the valid events before it (nothing
        already stored is lost; the invalid event and those after it are not written).
        """
        error: InvalidGameLog | None = None
        accepted = 0
        for obj in events:
            try:
                logged = self.validator.feed(dict(obj))
            except InvalidGameLog as e:
                error = e
                break
            self.encoder.event(logged, self.order)
            self.order += 1
            accepted += 1
        rows = self.encoder.take(self.validator.phases)
        texts = [m.text for m in rows.memories]
        vectors = self.embedder.encode(texts) if texts else np.zeros((0, 0), dtype=np.float32)
        self.vectors.update(zip((m.uid for m in rows.memories), vectors))
        everything = self.encoder.result(self.validator.phases)
        everything.statements = rows.statements  # link only the new statements, against every earlier memory
        derived = link_rumours(everything, self.vectors, self.params.similarity.rumour_chain)
        counts: WriteCounts = write_encoded_game(
            driver, database, rows, {m.uid: self.vectors[m.uid].tolist() for m in rows.memories}, derived,
            batch_size=batch_size, live=True)
        phase = self.validator.current_phase.index
        if phase > self.decayed_to:
            advance(driver, database, self.game, phase, self.params)
            self.decayed_to = phase
        if error is not None:
            raise error
        return BatchReport(accepted, len(rows.memories), counts.nodes_created, counts.relationships_created, phase)
