"""What recall keeps of an owner's memories between calls: the vectors of the dense half of
docs/model.md#candidates-and-ranking.

**Content and context.** A cue retrieves a memory by how it was encoded, its context included (Tulving & Thomson
1973, encoding specificity): "what did Fletcher tell you in private on day 2" names who, where and when, not what
was said. So a memory has two embeddings: of its text (what happened, the embedding ingest stores) and of its
context, the words it can be found by besides its text (its ``keywords``: the names it holds, the place and the
day, :func:`graphmem.model.details.search_keywords`). Dense relevance is the better of the two matches,
max(cos(topic, text), cos(topic, context)), min-max normalised over the candidates
(:func:`graphmem.recall.pipeline.dense_scores`): a cue reaches a memory through whichever aspect it shares with it,
its content or its circumstances, and a question about one of them is not diluted by the other. On the 40 real
games (bench/bench_retrieval.py, questions whose answers the player witnessed) the ``perfect`` profile's recall@10
was 0.62 with the text alone, 0.81 with the sum of the two cosines and 0.89 with the better of them, against 0.76
for the full-text index alone and 0.62 for plain cosine (bench/README.md). The text embedding alone still serves
rumour chains, consolidation, contradictions and the donors of reconsolidation: there a place and a day in common
make two memories no more alike.

**Kept, not stored.** Neo4j reads a 384-float embedding from the property store in ~10 us and computes its cosine
in ~4 us, so an owner with 10,000 candidates cost ~140 ms per recall in Cypher; numpy does the same product over a
matrix held in memory in well under a millisecond. A memory's text embedding and the players it is about never
change once written (ingest and consolidation set them only when missing; reconsolidation rewrites the text, not the
embedding); its keywords change only when a reconsolidation rewrites them, which also raises its access count
``n``. So an :class:`EmbeddingCache` keeps, per stored game, each memory's uid, its ``about``, its keywords with the
``n`` they belong to, and its two vectors:

- a game is identified by its uid and its ``incarnation`` (a random id written when its Game node is created), so a
  game deleted and stored again under the same id (possibly from another log) never meets the vectors of the old one;
- it also keeps the uid of each Memory node id it has met (:meth:`EmbeddingCache.uids`): ``recall/context`` returns
  its candidates as node ids, numbers being cheaper to decode than uids; an id not held is resolved in the
  transaction that read it (a node id names a node only while it lives; a Memory is deleted only with its game, and
  a game stored again is another incarnation);
- :meth:`EmbeddingCache.fetch` reads only the memories it does not hold, or holds at another ``n`` (one query,
  ``recall/embeddings``): the first recall of an owner reads all of that owner's candidates, later ones only the
  memories written or reconsolidated since; context embeddings come from the embedding model (its own content
  cache embeds each distinct keywords string once per process: a game has a few per player and day);
- at most ``max_memories`` memories are held (two 1.5 KB vectors each at 384 dimensions); beyond that the games
  used least recently are dropped whole.

**Candidates.** It also keeps, per owner (and recall phase), the last candidates ``recall/context`` read: their node
ids, uids, access counts, strengths, flashbulb flags and thresholds (:class:`HeldCandidates`), with what they were
read at: the game's incarnation and ``decayed_to``, the phase and the owner's memory version
(:mod:`graphmem.store.versions`). Every write that changes an owner's memories raises that version, in its
transaction and again once it has committed (ingest and live batches, a writing recall, consolidation,
contradictions, forgetting; the schema backfill after its batches; the decay job moves ``decayed_to`` instead), so
when all four still match, the query
does not read the candidates again (``fresh``): an owner of 10,000 memories asked several questions in a turn pays
the read of its index entries once, not per question (the ``perfect`` profile's owner: 20-28 ms of the server's
time per read, bench/README.md). A writing recall raises its owner's version and, when its two raises follow the
version it read the candidates at (no other write came between, in any process), brings what its process holds up to
date with what it wrote (:func:`graphmem.recall.candidates.keep_written`): an agent's recalls in a row are not read
again either; every other process reads them again.

The first recall of an owner in a process therefore reads every candidate's embedding and embeds its distinct
keywords (on a real game, ~50 memories and ~25 strings: tens of milliseconds); ``graphmem recall`` on the command
line is such a first recall every time. A long-running process (a game engine, ``graphmem serve``) pays it once.

It holds no game state: whatever it holds can be read again, a restart loses nothing, and several processes serving
one Neo4j each keep their own. One cache belongs to one driver and database (a :class:`graphmem.MemoryService`
owns one); it is thread-safe (``graphmem serve`` shares one between its request threads): a lock guards what it
holds, never a query or the model (two recalls may read the same missing memory at once; the one that puts it last
wins, and a row put at an access count other than the one a recall wants is read again), and a row a caller was
given is never moved or dropped (matrices only grow, copying their rows; a game dropped from the cache stays whole
for whoever holds it).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import neo4j
import numpy as np
import numpy.typing as npt

from graphmem.embedding import Embedder
from graphmem.store.queries import cypher

__all__ = ["DEFAULT_MAX_MEMORIES", "EmbeddingCache", "GameVectors", "HeldCandidates"]

log = logging.getLogger(__name__)

DEFAULT_MAX_MEMORIES = 100_000
"""Memories an :class:`EmbeddingCache` holds by default: ~300 MB at 384 float32 dimensions (two vectors each)."""

Matrix = npt.NDArray[np.float32]
_Read = tuple[str, npt.NDArray[np.float32], npt.NDArray[np.float32] | None, tuple[str, ...], str, int]
"""One memory read by :meth:`EmbeddingCache.fetch`: uid, text vector, context vector (None: none asked), about,
keywords, n."""


@dataclass
class GameVectors:
    """The memories read so far of one stored game: ``rows[uid]`` indexes ``texts`` and ``contexts`` (shape
    (capacity, dim), the first ``size`` rows in use: the L2-normalised embeddings of the text and of the context,
    float32; a context row is zero until an embedder has embedded it), ``about``, ``keywords`` and ``n`` (the
    access count the keywords belong to; -1 while the context is missing); ``uid_of[node id]``: the uid of each
    Memory node met so far (:meth:`EmbeddingCache.uids`), vectors read or not."""

    rows: dict[str, int] = field(default_factory=dict)
    about: list[tuple[str, ...]] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    n: list[int] = field(default_factory=list)
    texts: Matrix = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    contexts: Matrix = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    size: int = 0
    uid_of: dict[int, str] = field(default_factory=dict)

    @property
    def held(self) -> int:
        """What counts against :attr:`EmbeddingCache.max_memories`: the memories with vectors or a known uid."""
        return max(self.size, len(self.uid_of))

    def put(self, uid: str, text: npt.NDArray[np.float32], context: npt.NDArray[np.float32] | None,
            about: tuple[str, ...], keywords: str, n: int) -> None:
        """Set the row of ``uid`` (appended when new); ``context`` None leaves it zero and ``n`` -1, unless the row
        already holds the context vector of the same ``keywords`` (a concurrent recall that embedded them stored it:
        a recall without a topic, which reads no context vector, must not zero it under a recall that uses it)."""
        row = self.rows.get(uid)
        if context is None and row is not None and self.n[row] >= 0 and self.keywords[row] == keywords:
            self.texts[row] = text
            self.about[row] = about
            self.n[row] = n
            return
        dim = text.shape[0]
        if row is None:
            if self.texts.shape[0] <= self.size or self.texts.shape[1] != dim:
                capacity = max(64, 2 * self.texts.shape[0])
                texts = np.zeros((capacity, dim), dtype=np.float32)
                contexts = np.zeros((capacity, dim), dtype=np.float32)
                if self.size and self.texts.shape[1] == dim:
                    texts[:self.size] = self.texts[:self.size]
                    contexts[:self.size] = self.contexts[:self.size]
                self.texts, self.contexts = texts, contexts
            row = self.rows[uid] = self.size
            self.size += 1
            self.about.append(about)
            self.keywords.append(keywords)
            self.n.append(n)
        else:
            self.about[row], self.keywords[row] = about, keywords
        self.texts[row] = text
        if context is None:
            self.contexts[row] = 0.0
            self.n[row] = -1
        else:
            self.contexts[row] = context
            self.n[row] = n


@dataclass(frozen=True)
class HeldCandidates:
    """An owner's candidates as ``recall/context`` read them (see the module docstring, "Candidates"): read at the
    game's ``incarnation`` and ``decayed_to``, the recall phase ``now`` and the owner's ``version``
    (:mod:`graphmem.store.versions`). Parallel arrays of shape (count,), read-only: ``ids`` (node ids, int64), ``uids``,
    ``ns`` (access counts), ``strengths`` (float64, m at ``now``), ``flashbulbs`` (bool), ``thresholds`` (float64)."""

    incarnation: str
    version: int
    now: int
    decayed_to: int
    ids: npt.NDArray[np.int64]
    uids: tuple[str, ...]
    ns: tuple[int, ...]
    strengths: npt.NDArray[np.float64]
    flashbulbs: npt.NDArray[np.bool_]
    thresholds: npt.NDArray[np.float64]

    def __post_init__(self) -> None:
        for values in (self.ids, self.strengths, self.flashbulbs, self.thresholds):
            values.flags.writeable = False  # shared by every recall that uses them

    def written(self, version: int, changes: Mapping[int, tuple[int, float]]) -> HeldCandidates:
        """These candidates after a write that took the owner's version to ``version`` and changed the rows
        ``changes`` ({row: (access count, strength at ``now``)}); the rest is shared with ``self``."""
        ns = list(self.ns)
        strengths = self.strengths.copy()
        for row, (n, strength) in changes.items():
            ns[row] = n
            strengths[row] = strength
        return replace(self, version=version, ns=tuple(ns), strengths=strengths)

    @property
    def known(self) -> dict[str, object]:
        """What ``recall/context`` compares (its ``$known`` parameter)."""
        return {"incarnation": self.incarnation, "version": self.version, "now": self.now,
                "decayed_to": self.decayed_to}


class EmbeddingCache:
    """Each memory's text and context vectors and its ``about`` list, by game incarnation and uid (see the module
    docstring).

    max_memories : int >= 0, the most memories held (0: nothing is kept between calls, every recall reads its
    candidates again).
    """

    def __init__(self, max_memories: int = DEFAULT_MAX_MEMORIES) -> None:
        self.max_memories = max_memories
        self._games: OrderedDict[tuple[str | None, str, str], GameVectors] = OrderedDict()
        self._candidates: OrderedDict[tuple[object, ...], HeldCandidates] = OrderedDict()
        self._lock = threading.Lock()
        self.read = 0
        """Memories read from Neo4j so far (cache misses)."""
        self.candidates_reused = 0
        """Recalls whose candidates were not read again (held, and still what the store says)."""

    def __len__(self) -> int:
        return sum(v.held for v in self._games.values())

    def clear(self) -> None:
        """Drop everything held."""
        with self._lock:
            self._games.clear()
            self._candidates.clear()

    def held_candidates(self, key: tuple[object, ...]) -> HeldCandidates | None:
        """The candidates kept under ``key`` (the database, game, owner, phase asked and parameters of a read), or
        None."""
        with self._lock:
            held = self._candidates.get(key)
            if held is not None:
                self._candidates.move_to_end(key)
            return held

    def keep_candidates(self, key: tuple[object, ...], held: HeldCandidates) -> None:
        """Keep ``held`` under ``key`` (replacing what was there); owners used least recently are dropped once more
        than ``max_memories`` candidates are kept in all (nothing is kept when it is 0)."""
        if self.max_memories <= 0 or len(held.uids) > self.max_memories:
            return
        with self._lock:
            self._candidates[key] = held
            self._candidates.move_to_end(key)
            total = sum(len(h.uids) for h in self._candidates.values())
            while total > self.max_memories:
                _, dropped = self._candidates.popitem(last=False)
                total -= len(dropped.uids)

    def uids(self, tx: neo4j.ManagedTransaction, database: str | None, game: str, incarnation: str | None,
             ids: Sequence[int]) -> list[str | None]:
        """The uid of each Memory node id in ``ids``, in order (None for a node gone since ``ids`` were read).

        tx : the read transaction that read ``ids`` (``recall/context``): a node id names a node only while it exists
        (Neo4j reuses the id of a deleted node), so the ids not held are resolved in it (``recall/uids``, one query).
        Held ids are the game incarnation's own: a memory is deleted only with its game, and a game stored again is
        another incarnation. Why ids and not uids: the client's share of reading 10,000 candidates was 9 ms as rows with
        uids and element ids, 2 ms as lists of node ids (graphmem/recall/__init__.py). A game without an
        ``incarnation`` is resolved every time and not kept.
        """
        key = (database, game, incarnation or "")
        keep = bool(incarnation) and self.max_memories > 0
        with self._lock:
            vectors = self._games.get(key) if incarnation else None
            known = vectors.uid_of if vectors is not None else {}
            found = list(map(known.get, ids))
        if None not in found:
            return found
        missing = [i for i, u in zip(ids, found) if u is None]
        read = {int(r["id"]): str(r["uid"]) for r in tx.run(cypher("recall/uids"), ids=list(dict.fromkeys(missing)))}
        if not keep:
            return [known.get(i) or read.get(i) for i in ids]
        with self._lock:
            vectors = self._games.get(key)
            if vectors is None:
                vectors = self._games[key] = GameVectors()
            vectors.uid_of.update(read)
            self._games.move_to_end(key)
            self._evict(keep=key)
            known = vectors.uid_of
            return [known.get(i) for i in ids]

    def fetch(self, driver: neo4j.Driver, database: str | None, game: str, incarnation: str | None,
              uids: Sequence[str], ns: Sequence[int],
              embedder: Embedder | None) -> tuple[GameVectors, npt.NDArray[np.intp]]:
        """The vectors of the memories ``uids`` of ``game``, at access counts ``ns``: (the game's vectors, the row of
        each uid in its matrix, in order; -1 for a memory stored without an embedding).

        Reads the memories not held, or held at another access count, in one query (``recall/embeddings``), and
        embeds their keywords with ``embedder`` (None: only the texts and ``about`` are wanted, as for a recall
        without a topic; rows read then hold no context, and the next call with an embedder reads them again). A game
        without an ``incarnation`` (stored by a graphmem without it; ``graphmem init`` gives it one) is read every
        time and not kept.
        """
        key = (database, game, incarnation or "")
        keep = bool(incarnation) and self.max_memories > 0
        with self._lock:
            vectors = self._games.get(key) if incarnation else None
            if vectors is None:
                vectors = GameVectors()
                if keep:
                    self._games[key] = vectors  # concurrent first recalls of a game fill one GameVectors
            rows, held = vectors.rows, vectors.n
            found = list(map(rows.get, uids))
            if embedder is None:  # only the text and `about`, which never change, are wanted
                stale = [u for u, r in zip(uids, found) if r is None]
            else:
                stale = [u for u, r, n in zip(uids, found, ns) if r is None or held[r] != n]
        if stale:
            # the read and the keywords' embedding run without the lock: under it, every concurrent recall waited
            # for one another's query and for the model's forward passes (8 clients: 44 ms of each recall)
            read = self._read(driver, database, list(dict.fromkeys(stale)), embedder)
            with self._lock:
                for uid, text, context, about, keywords, n in read:
                    vectors.put(uid, text, context, about, keywords, n)
                self.read += len(read)
        with self._lock:
            if keep:
                self._games[key] = vectors
                self._games.move_to_end(key)
                self._evict(keep=key)
            if stale:  # rows were added
                found = list(map(vectors.rows.get, uids))
            if None not in found:
                return vectors, np.array(found, dtype=np.intp)
            return vectors, np.array([-1 if r is None else r for r in found], dtype=np.intp)

    def rewritten(self, database: str | None, game: str, incarnation: str | None,
                  updates: Sequence[tuple[str, int, int, str]], embedder: Embedder) -> int:
        """Bring the memories a recall has just reconsolidated and written up to date without reading them again:
        ``updates`` are (uid, access count before, access count written, keywords written). A memory held at the
        count before gets the count written, and a new context vector when its keywords changed (embedded by
        ``embedder``, whose own cache knows most keywords strings already); one held at another count, or not
        held, is left for :meth:`fetch` to read. Returns the memories brought up to date.

        Without it, the next recall of the owner read every memory the last one returned again (one query and
        ~2 ms of each writing recall on the real games).
        """
        key = (database, game, incarnation or "")
        with self._lock:
            vectors = self._games.get(key) if incarnation else None
            if vectors is None:
                return 0
            current = [(vectors.rows[uid], before, n, words) for uid, before, n, words in updates
                       if uid in vectors.rows and vectors.n[vectors.rows[uid]] == before]
            changed = [words for row, _, _, words in current if vectors.keywords[row] != words]
        contexts = dict(zip(changed, embedder.encode(changed))) if changed else {}
        done = 0
        with self._lock:
            for row, before, n, words in current:
                if vectors.n[row] != before:  # another recall read or rewrote it meanwhile: theirs stands
                    continue
                if vectors.keywords[row] != words:
                    vectors.contexts[row], vectors.keywords[row] = contexts[words], words
                vectors.n[row] = n
                done += 1
        return done

    def _read(self, driver: neo4j.Driver, database: str | None, uids: list[str],
              embedder: Embedder | None) -> list[_Read]:
        """(uid, text vector, context vector or None, about, keywords, n) of each of ``uids`` stored with an
        embedding (``recall/embeddings``), the keywords embedded by ``embedder`` (None: no context)."""
        records, _, _ = driver.execute_query(cypher("recall/embeddings"), uids=uids, database_=database,
                                             routing_=neo4j.RoutingControl.READ)
        found = [r for r in records if r["embedding"] is not None]
        if not found:
            return []
        raw = np.array([r["embedding"] for r in found], dtype=np.float32)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        texts: Matrix = (raw / np.where(norms > 0.0, norms, 1.0)).astype(np.float32)
        contexts = None if embedder is None else embedder.encode([str(r["keywords"]) for r in found])
        return [(str(r["uid"]), texts[i], None if contexts is None else contexts[i].astype(np.float32),
                 tuple(r["about"] or ()), str(r["keywords"]), int(r["n"])) for i, r in enumerate(found)]

    def _evict(self, keep: tuple[str | None, str, str]) -> None:
        total = len(self)
        while total > self.max_memories and len(self._games) > 1:
            oldest = next(iter(self._games))
            if oldest == keep:
                break
            total -= self._games.pop(oldest).held
            log.debug("embedding cache: dropped %s", oldest[1])
