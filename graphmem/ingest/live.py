"""A game being played: events arrive one at a time (or in small batches) from a game engine.

:class:`LiveGame` keeps what a live game needs between calls in the engine's process: the validator (the same rules
as a log file), the encoder's game state, and the embeddings of the game's memories (rumour chains look back at
the teller's earlier memories). Every batch is validated, encoded, embedded, linked and written in idempotent
batches, exactly as a log file would be; the caller (:class:`graphmem.service.MemoryService`) then runs the decay
job to the batch's newest phase (:attr:`BatchReport.phase`).

If the engine's process restarts, reopen the game with the events it has already sent
(``MemoryService.start_game(header, history=...)``): replaying them writes nothing new, because every uid is
derived from the game, the owner and the event id.

The Game node keeps the number of events and the log hash of the game so far (the hash a log file of the same
header and events would have, :class:`graphmem.logs.writer.LogDigest`). Before a batch is written, the process
claims it: the stored count and hash must be the ones it had before the batch (ingest/live_claim, under the Game
node's lock). So a second process, or a restarted one that reopened the game without its history or with a
different header, is refused with :class:`GameConflict` before it writes anything, instead of merging its events
into others that carry the same ids.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import neo4j
import numpy as np

from graphmem.embedding import Embedder, Vectors
from graphmem.errors import GameConflict, InvalidGameLog
from graphmem.ingest.encode import Encoder, check_profiles
from graphmem.ingest.rumours import link_rumours
from graphmem.logs import GameLogValidator
from graphmem.logs.schema import EndEvent, GameHeader
from graphmem.logs.writer import LogDigest
from graphmem.model import Parameters
from graphmem.store.queries import cypher
from graphmem.store.writer import WriteCounts, mark_complete, write_game_rows

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BatchReport:
    """What one batch of live events did: events accepted, memories encoded, nodes and relationships created,
    and the game's phase after it (the phase to decay the game to)."""

    events: int
    memories: int
    nodes_created: int
    relationships_created: int
    phase: int


def file_game_refusal(game: str) -> str:
    """Why a game stored from a log file cannot be fed live (the message of the GameConflict both checks raise)."""
    return (f"game '{game}' is stored from a log file (`graphmem ingest`), not fed live: live events would mix with "
            "it. Nothing was written; start the live game under another id")


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
        """The phase the caller last decayed the game to."""
        self.digest = LogDigest(self.header)
        self.refused: str | None = None
        """Why this process may no longer add events (another process changed the game), or None."""

    @property
    def game(self) -> str:
        """The game id."""
        return self.header.game

    @property
    def phase(self) -> int:
        """The index of the game's current phase (of the last accepted event)."""
        return self.validator.current_phase.index

    def add(self, driver: neo4j.Driver, database: str | None, events: Sequence[Mapping[str, Any]],
            *, batch_size: int = 1000) -> BatchReport:
        """Validate, encode and write ``events`` in order (the caller then decays the game to ``report.phase``).

        Raises InvalidGameLog for the first invalid event, after writing the valid events before it (nothing
        already stored is lost; the invalid event and those after it are not written). Raises GameConflict, writing
        nothing, when the stored game is not the one this process holds (see the module docstring); every later
        call then raises it too.
        """
        if self.refused is not None:
            raise GameConflict(self.refused)
        before = (self.digest.events, self.digest.hexdigest())
        error: InvalidGameLog | None = None
        accepted = 0
        ended = False
        for obj in events:
            try:
                logged = self.validator.feed(dict(obj))
            except InvalidGameLog as e:
                error = e
                break
            self.encoder.event(logged, self.order)
            self.digest.add(logged)
            self.order += 1
            accepted += 1
            ended = ended or isinstance(logged.event, EndEvent)
        self._claim(driver, database, before)
        rows = self.encoder.take(self.validator.phases)
        texts = [m.text for m in rows.memories]
        vectors = self.embedder.encode(texts) if texts else np.zeros((0, 0), dtype=np.float32)
        self.vectors.update(zip((m.uid for m in rows.memories), vectors))
        everything = self.encoder.result(self.validator.phases)
        everything.statements = rows.statements  # link only the new statements, against every earlier memory
        derived = link_rumours(everything, self.vectors, self.params.similarity.rumour_chain)
        counts: WriteCounts = write_game_rows(
            driver, database, rows, {m.uid: self.vectors[m.uid].tolist() for m in rows.memories}, derived,
            batch_size=batch_size, log_sha256=self.digest.hexdigest(), log_events=self.digest.events, live=True)
        if ended:
            mark_complete(driver, database, self.game)
        if error is not None:
            raise error
        return BatchReport(accepted, len(rows.memories), counts.nodes_created, counts.relationships_created,
                           self.phase)

    def _claim(self, driver: neo4j.Driver, database: str | None, before: tuple[int, str]) -> None:
        """Claim this batch in the stored game (ingest/live_lock, then ingest/live_claim, in one transaction).

        A game not stored yet needs no claim: the batch's write creates it. Raises GameConflict (and refuses every
        later batch) when the claim does not hold.
        """
        after = (self.digest.events, self.digest.hexdigest())

        def work(tx: neo4j.ManagedTransaction) -> dict[str, Any] | None:
            now = datetime.now(timezone.utc).isoformat(timespec="seconds")
            if tx.run(cypher("ingest/live_lock"), game=self.game, now=now).single() is None:
                return None
            record = tx.run(cypher("ingest/live_claim"), game=self.game, before_events=before[0],
                            before_sha256=before[1], after_events=after[0], after_sha256=after[1]).single()
            return None if record is None else record.data()

        with driver.session(database=database) as session:
            stored = session.execute_write(work)
        if stored is None or stored["claimed"]:
            return
        if not stored["live"]:
            self.refused = file_game_refusal(self.game)
        else:
            held = int(stored["log_events"] or 0)
            if held > before[0] > 0:  # this process had written its events; the store moved on without it
                why = (f"holds {held} events in Neo4j, but this process expected {before[0]} before this batch: "
                       "another process added events to it")
            elif held == after[0]:
                why = (f"holds {held} events in Neo4j, as many as this process after this batch, but different ones: "
                       "the header or the events differ from those stored")
            else:
                why = (f"holds {held} events in Neo4j, but this process expected {before[0]} before this batch: "
                       "it was reopened with a different header or history")
            self.refused = (f"game '{self.game}' {why}. Nothing of this batch was written; reopen the game with "
                            "start_game(header, history=[every event sent so far, in order])")
        raise GameConflict(self.refused)
