"""The embeddings of an owner's memories, kept in the process between recalls (the dense half of SPEC 6 step 1).

Recall needs the cosine of the topic with every candidate's embedding (``dense`` is min-max normalised over all of
them). Neo4j reads a 384-float embedding from the property store in ~10 us and computes its cosine in ~4 us, so an
owner with 10,000 candidates cost ~140 ms per recall in Cypher; numpy does the same product over a matrix held in
memory in well under a millisecond. A memory's embedding never changes once written (ingest and consolidation set it
only when it is missing; reconsolidation rewrites the text, not the embedding), and neither does the list of players
it is about, so both can be kept between recalls:

- an :class:`EmbeddingCache` holds, per stored game, the uid, embedding and ``about`` of the memories it has read;
- a game is identified by its uid and its ``incarnation`` (a random id written when its Game node is created), so a
  game deleted and stored again under the same id (possibly from another log) never meets the vectors of the old one;
- :meth:`EmbeddingCache.fetch` reads only the uids it does not hold (one query, ``recall/embeddings``): the first
  recall of an owner reads all of that owner's candidates, later ones only the memories written since;
- at most ``max_memories`` vectors are held (1.5 KB each at 384 dimensions); beyond that the games used least
  recently are dropped whole.

It holds no game state: whatever it holds can be read again, a restart loses nothing, and several processes serving
one Neo4j each keep their own. One cache belongs to one driver and database (a :class:`graphmem.MemoryService`
owns one); it is safe for one thread at a time.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

import neo4j
import numpy as np
import numpy.typing as npt

from graphmem.store.queries import cypher

__all__ = ["DEFAULT_MAX_MEMORIES", "EmbeddingCache", "GameVectors"]

log = logging.getLogger(__name__)

DEFAULT_MAX_MEMORIES = 200_000
"""Vectors an :class:`EmbeddingCache` holds by default: ~300 MB at 384 float32 dimensions."""

Matrix = npt.NDArray[np.float32]


@dataclass
class GameVectors:
    """The vectors read so far of one stored game: ``rows[uid]`` indexes ``matrix`` (shape (capacity, dim),
    the first ``size`` rows in use, L2-normalised float32 as stored) and ``about``."""

    rows: dict[str, int] = field(default_factory=dict)
    about: list[tuple[str, ...]] = field(default_factory=list)
    matrix: Matrix = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    size: int = 0

    def add(self, uids: Sequence[str], vectors: Matrix, about: Sequence[tuple[str, ...]]) -> None:
        """Append the rows of ``uids`` (vectors of shape (len(uids), dim))."""
        if not uids:
            return
        need = self.size + len(uids)
        if self.matrix.shape[0] < need or self.matrix.shape[1] != vectors.shape[1]:
            grown = np.zeros((max(need, 2 * self.matrix.shape[0], 64), vectors.shape[1]), dtype=np.float32)
            if self.size and self.matrix.shape[1] == vectors.shape[1]:
                grown[:self.size] = self.matrix[:self.size]
            self.matrix = grown
        self.matrix[self.size:need] = vectors
        for i, uid in enumerate(uids):
            self.rows[uid] = self.size + i
        self.about.extend(about)
        self.size = need


class EmbeddingCache:
    """Embeddings and ``about`` lists of stored memories, by game incarnation and uid (see the module docstring).

    max_memories : int >= 0, the most vectors held (0: nothing is kept between calls, every recall reads its
    candidates' embeddings).
    """

    def __init__(self, max_memories: int = DEFAULT_MAX_MEMORIES) -> None:
        self.max_memories = max_memories
        self._games: OrderedDict[tuple[str | None, str, str], GameVectors] = OrderedDict()
        self.read = 0
        """Embeddings read from Neo4j so far (cache misses)."""

    def __len__(self) -> int:
        return sum(v.size for v in self._games.values())

    def clear(self) -> None:
        """Drop everything held."""
        self._games.clear()

    def fetch(self, driver: neo4j.Driver, database: str | None, game: str, incarnation: str | None,
              uids: Sequence[str]) -> tuple[GameVectors, npt.NDArray[np.intp]]:
        """The vectors of ``uids`` (memories of ``game``): (the game's vectors, the row of each uid in its matrix, in
        order; -1 for a memory stored without an embedding).

        Reads the uids not held in one query (``recall/embeddings``). A game without an ``incarnation`` (stored by a
        graphmem without it; ``graphmem init`` gives it one) is read every time and not kept.
        """
        key = (database, game, incarnation or "")
        vectors = self._games.get(key) if incarnation else None
        if vectors is None:
            vectors = GameVectors()
        missing = [u for u in dict.fromkeys(uids) if u not in vectors.rows]
        if missing:
            self._read(driver, database, vectors, missing)
        if incarnation and self.max_memories > 0:
            self._games[key] = vectors
            self._games.move_to_end(key)
            self._evict(keep=key)
        return vectors, np.fromiter((vectors.rows.get(u, -1) for u in uids), dtype=np.intp, count=len(uids))

    def _read(self, driver: neo4j.Driver, database: str | None, vectors: GameVectors, uids: list[str]) -> None:
        records, _, _ = driver.execute_query(cypher("recall/embeddings"), uids=uids, database_=database,
                                             routing_=neo4j.RoutingControl.READ)
        found = [r for r in records if r["embedding"] is not None]
        if found:
            matrix = np.array([r["embedding"] for r in found], dtype=np.float32)
            vectors.add([str(r["uid"]) for r in found], matrix, [tuple(r["about"] or ()) for r in found])
        self.read += len(found)

    def _evict(self, keep: tuple[str | None, str, str]) -> None:
        total = len(self)
        while total > self.max_memories and len(self._games) > 1:
            oldest = next(iter(self._games))
            if oldest == keep:
                break
            total -= self._games.pop(oldest).size
            log.debug("embedding cache: dropped %s", oldest[1])
