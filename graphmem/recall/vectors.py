"""What recall keeps of an owner's memories between calls: the vectors of the dense half of
docs/model.md#candidates-and-ranking.

**What is kept.** Dense relevance is the cosine of the topic's embedding and the memory text's
(:func:`graphmem.recall.pipeline.dense_scores`). It once was the better of that and the cosine with an embedding of
the memory's context (its keywords: names, place, day); on LoCoMo every turn of a session shared one context, so
whole sessions tied at the top (issue 24): the context now cues only through the lexical lane, where the day and
the place are words among others. A cue naming a person reaches the memories that person is believed to have said
through the source route (:func:`graphmem.recall.ranking.source_route`), for which the cache keeps each memory's
:class:`SourceCue`.

**Kept, not stored.** Neo4j reads a 384-float embedding from the property store in ~10 us and computes its cosine
in ~4 us, so an owner with 10,000 candidates cost ~140 ms per recall in Cypher; numpy does the same product over a
matrix held in memory in well under a millisecond. A memory's text embedding and the players it is about never
change once written (ingest and consolidation set them only when missing; reconsolidation rewrites the text, not the
embedding); its believed teller changes only when a reconsolidation misattributes it, which also raises its access
count ``n``. So an :class:`EmbeddingCache` keeps, per stored game, each memory's uid, its ``about``, its text vector and
its source cue with the ``n`` it belongs to:

- a game is identified by its uid and its ``incarnation`` (a random id written when its Game node is created), so a
  game deleted and stored again under the same id (possibly from another log) never meets the vectors of the old one;
- :meth:`EmbeddingCache.fetch` reads only the memories it does not hold, or holds at another ``n`` (one query,
  ``recall/embeddings``): the first recall of an owner reads all of that owner's candidates, later ones only the
  memories written or reconsolidated since;
- at most ``max_memories`` memories are held (a 1.5 KB vector each at 384 dimensions); beyond that the games
  used least recently are dropped whole.

**Candidates.** Which memories are an owner's candidates, and at which access counts, is the reader's
(:class:`graphmem.store.reader.MemoryReader`, which a process keeps beside its cache): it reads them, holds them
versioned between recalls and learns of every change by reading, a writing recall's own included. A memory's
access count is what tells the cache that a reconsolidation changed the row it holds: when the reader reads the
memories another write logged, it also reads their new access counts, source cues, texts and keywords
(``recued``), which :meth:`EmbeddingCache.recued` sets on the rows held instead of reading their embeddings again.

The first recall of an owner in a process therefore reads every candidate's embedding and source cue (on a real
game, ~50 memories: a few milliseconds); ``graphmem recall`` on the command
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
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import neo4j
import numpy as np
import numpy.typing as npt

from graphmem.model.source import keeps_source
from graphmem.recall.dates import told_day
from graphmem.recall.lexical import Postings, bm25
from graphmem.recall.neighbours import NO_TALK, conversation_key
from graphmem.store.queries import cypher

__all__ = ["DEFAULT_MAX_MEMORIES", "EmbeddingCache", "GameVectors"]

log = logging.getLogger(__name__)

DEFAULT_MAX_MEMORIES = 100_000
"""Memories an :class:`EmbeddingCache` holds by default: ~150 MB at 384 float32 dimensions (a vector each)."""

Matrix = npt.NDArray[np.float32]
MEMO_MIN = 256
"""The fewest candidates whose rows :meth:`EmbeddingCache.fetch` keeps (:attr:`GameVectors.fetched`): below, looking
them up costs less than a millisecond."""
MEMO_SIZE = 8
"""The most sequences of candidates whose rows a game keeps (its owners, at the phases they are asked at)."""


@dataclass(frozen=True)
class SourceCue:
    """What a cue naming a person needs of a memory (the source route of docs/model.md#candidates-and-ranking): who
    the owner believes it came from and how that belief fades.

    speaker : the believed teller (the speaker of a statement as the owner believes it now: misattribution changes
    it, and the access count with it), the owner for the owner's own statements and actions, "" for none; c0 : float
    in [0, 1], source confidence at encoding; k : float >= 1, the source exponent; t_enc : int, the phase of
    encoding; s_enc : float > 0 (inf for ``perfect``), the stability the source clock runs on; own : bool, the
    owner's own statement or action (its route is 1: people know what they said themselves); flashbulb : bool;
    misattributed : bool, the last recall named another teller.
    """

    speaker: str
    c0: float
    k: float
    t_enc: int
    s_enc: float
    own: bool
    flashbulb: bool = False
    misattributed: bool = False

    @property
    def keep(self) -> bool:
        """Whether the source belief holds whatever the confidence (:func:`graphmem.model.source.keeps_source`)."""
        return keeps_source(self.own, self.flashbulb, self.misattributed)


NO_SOURCE = SourceCue("", 0.0, 1.0, 0, 1.0, False)
"""The source cue of a memory with no one it came from (or one stored before these properties existed)."""

_Read = tuple[str, npt.NDArray[np.float32], tuple[str, ...], int, SourceCue, tuple[str | None, str | None, str | None],
              tuple[tuple[Hashable, ...] | None, int], float]
"""One memory read by :meth:`EmbeddingCache.fetch`: uid, text vector, about, n, source cue, (text, keywords,
context), (its conversation, :func:`graphmem.recall.neighbours.conversation_key`, and its line in the log), the time
its event was logged at (days, :func:`graphmem.recall.dates.told_day`; NaN for none)."""


@dataclass
class GameVectors:
    """The memories read so far of one stored game: ``rows[uid]`` indexes ``texts`` (shape (capacity, dim), the first
    ``size`` rows in use: the L2-normalised embeddings of the texts, float32), ``about``, ``n`` (the access count the
    source cue belongs to) and the source cues in columns, so that the source route is one numpy pass
    (:meth:`source` gives a row's :class:`SourceCue`): ``speakers`` (names, "" for none) with ``speaker_ids`` (int32,
    0 for none; ``speaker_index`` maps a name to its id), ``cue_numbers`` (float64, shape (capacity, 4): c0, k,
    t_enc, s_enc) and ``cue_flags`` (bool, shape (capacity, 3): own, flashbulb, misattributed); ``postings``:
    the lexical index of the same rows (:class:`graphmem.recall.lexical.Postings`: each row's text, keywords and
    context as searched, at the access count ``n``); ``talks`` (int64, each row's conversation id for a statement,
    :data:`graphmem.recall.neighbours.NO_TALK` for another memory; ``talk_index`` maps a conversation to its id) and
    ``lines`` (int64, the statement's line in the log), which never change once written."""

    rows: dict[str, int] = field(default_factory=dict)
    about: list[tuple[str, ...]] = field(default_factory=list)
    n: list[int] = field(default_factory=list)
    texts: Matrix = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    speakers: list[str] = field(default_factory=list)
    speaker_ids: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    speaker_index: dict[str, int] = field(default_factory=dict)
    cue_numbers: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 4)))
    cue_flags: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros((0, 3), dtype=bool))
    size: int = 0
    postings: Postings = field(default_factory=Postings)
    talks: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    lines: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    talk_index: dict[tuple[Hashable, ...], int] = field(default_factory=dict)
    told: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    """The time each row's event was logged at, in days (:func:`graphmem.recall.dates.told_day`; NaN when the log
    gave none), which never changes once written: the date route of docs/model.md#candidates-and-ranking."""
    n_rows: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """``n`` as an array (the first ``size`` entries), so that a large set of candidates is checked in one pass."""
    changes: int = 0
    """Counts the changes of a row's access count (:meth:`put`, :meth:`set_n`)."""
    fetched: OrderedDict[int, tuple[Sequence[str], npt.NDArray[np.intp], Sequence[int], int]] = field(
        default_factory=OrderedDict, repr=False)
    """The rows :meth:`EmbeddingCache.fetch` last found for a large sequence of candidates' uids, by the id of that
    sequence: (the uids, their rows, read-only, the access counts they were all held at, :attr:`changes` then). Rows
    never move, so only the access counts need checking when the same uids are asked again (an owner's held
    candidates), and not even those when the same counts are asked and no count changed since."""

    def source(self, row: int) -> SourceCue:
        """The source cue of ``row``."""
        c0, k, t_enc, s_enc = (float(x) for x in self.cue_numbers[row])
        own, flashbulb, misattributed = (bool(x) for x in self.cue_flags[row])
        return SourceCue(self.speakers[row], c0, k, int(t_enc), s_enc, own, flashbulb, misattributed)

    def set_source(self, row: int, cue: SourceCue) -> None:
        """Set the source cue of an existing ``row``."""
        self.speakers[row] = cue.speaker
        self.speaker_ids[row] = self.speaker_index.setdefault(cue.speaker, len(self.speaker_index) + 1) \
            if cue.speaker else 0
        self.cue_numbers[row] = (cue.c0, cue.k, cue.t_enc, cue.s_enc)
        self.cue_flags[row] = (cue.own, cue.flashbulb, cue.misattributed)

    def set_n(self, row: int, n: int) -> None:
        """Set the access count of an existing ``row``."""
        self.n[row] = self.n_rows[row] = n
        self.changes += 1

    def put(self, uid: str, text: npt.NDArray[np.float32], about: tuple[str, ...], n: int,
            source: SourceCue = NO_SOURCE, words: tuple[str | None, str | None, str | None] = (None, None, None),
            said: tuple[tuple[Hashable, ...] | None, int] = (None, 0), told: float = float("nan")) -> None:
        """Set the row of ``uid`` (appended when new); ``words``: its (text, keywords, context) as stored, indexed
        for the lexical lane; ``said``: (its conversation, its line in the log) for a statement, (None, 0) else;
        ``told``: the time its event was logged at (days; NaN for none)."""
        row = self.rows.get(uid)
        dim = text.shape[0]
        if row is None:
            if self.texts.shape[0] <= self.size or self.texts.shape[1] != dim:
                capacity = max(64, 2 * self.texts.shape[0])
                texts = np.zeros((capacity, dim), dtype=np.float32)
                ids = np.zeros(capacity, dtype=np.int32)
                numbers, flags = np.zeros((capacity, 4)), np.zeros((capacity, 3), dtype=bool)
                talks, lines = np.zeros(capacity, dtype=np.int64), np.zeros(capacity, dtype=np.int64)
                n_rows = np.zeros(capacity, dtype=np.int64)
                told_rows = np.full(capacity, np.nan)
                if self.size and self.texts.shape[1] == dim:
                    texts[:self.size] = self.texts[:self.size]
                ids[:self.size], numbers[:self.size] = self.speaker_ids[:self.size], self.cue_numbers[:self.size]
                flags[:self.size] = self.cue_flags[:self.size]
                talks[:self.size], lines[:self.size] = self.talks[:self.size], self.lines[:self.size]
                n_rows[:self.size] = self.n_rows[:self.size]
                told_rows[:self.size] = self.told[:self.size]
                self.texts, self.speaker_ids, self.cue_numbers, self.cue_flags = texts, ids, numbers, flags
                self.talks, self.lines, self.n_rows, self.told = talks, lines, n_rows, told_rows
            row = self.rows[uid] = self.size
            self.size += 1
            self.about.append(about)
            self.speakers.append("")
            self.n.append(n)
        else:
            self.about[row], self.n[row] = about, n
        self.n_rows[row] = n
        self.changes += 1
        self.set_source(row, source)
        self.texts[row] = text
        self.postings.put(row, *words)
        talk, line = said
        self.talks[row] = NO_TALK if talk is None else self.talk_index.setdefault(talk, len(self.talk_index) + 1)
        self.lines[row] = line
        self.told[row] = told


class EmbeddingCache:
    """Each memory's text vector, its ``about`` list, its source cue and its words, by game incarnation and uid (see
    the module docstring): what one process keeps of the memories' vectors between recalls. Which memories are an
    owner's candidates is not its business but the :class:`graphmem.store.reader.MemoryReader`'s, which a process
    keeps beside it (:class:`graphmem.service.MemoryService` holds one of each).

    max_memories : int >= 0, the most memories held (0: nothing is kept between calls, every recall reads the vectors
    of its candidates again).
    """

    def __init__(self, max_memories: int = DEFAULT_MAX_MEMORIES) -> None:
        self.max_memories = max_memories
        self._games: OrderedDict[tuple[str | None, str, str], GameVectors] = OrderedDict()
        self._lock = threading.Lock()
        self.read = 0
        """Memories read from Neo4j so far (cache misses)."""

    def __len__(self) -> int:
        return sum(v.size for v in self._games.values())

    def clear(self) -> None:
        """Drop everything held."""
        with self._lock:
            self._games.clear()

    def fetch(self, driver: neo4j.Driver, database: str | None, game: str, incarnation: str | None,
              uids: Sequence[str], ns: Sequence[int]) -> tuple[GameVectors, npt.NDArray[np.intp]]:
        """The vectors of the memories ``uids`` of ``game``, at access counts ``ns``: (the game's vectors, the row of
        each uid in its matrix, in order; -1 for a memory stored without an embedding).

        Reads the memories not held, or held at another access count, in one query (``recall/embeddings``). A game
        without an ``incarnation`` (stored by a graphmem without it; ``graphmem init`` gives it one) is read every
        time and not kept.
        """
        key = (database, game, incarnation or "")
        keep = bool(incarnation) and self.max_memories > 0
        held_rows: npt.NDArray[np.intp] | None = None
        with self._lock:
            vectors = self._games.get(key) if incarnation else None
            if vectors is None:
                vectors = GameVectors()
                if keep:
                    self._games[key] = vectors  # concurrent first recalls of a game fill one GameVectors
            memo = vectors.fetched.get(id(uids)) if len(uids) >= MEMO_MIN else None
            if memo is not None and memo[0] is uids:
                # the same uids as before (an owner's held candidates): the same rows (rows never move), and only the
                # access counts to check (looking up 10,000 uids took 5-7 ms of every recall of a `perfect` owner)
                held_rows = memo[1]
                if memo[2] is ns and memo[3] == vectors.changes:
                    if keep:
                        self._games.move_to_end(key)
                    return vectors, held_rows
                moved = vectors.n_rows[held_rows] != np.asarray(ns, dtype=np.int64)
                stale = [uids[i] for i in np.flatnonzero(moved).tolist()]
            else:
                found = list(map(vectors.rows.get, uids))
                if None in found:
                    held = vectors.n
                    stale = [u for u, r, n in zip(uids, found, ns) if r is None or held[r] != n]
                else:  # every one held (candidates patched after another's write): the counts in one numpy pass
                    held_rows = np.array(found, dtype=np.intp)
                    moved = vectors.n_rows[held_rows] != np.asarray(ns, dtype=np.int64)
                    stale = [uids[i] for i in np.flatnonzero(moved).tolist()]
        if stale:
            # the read runs without the lock: under it, every concurrent recall waited for one another's query
            read = self._read(driver, database, list(dict.fromkeys(stale)))
            with self._lock:
                for uid, text, about, n, source, words, said, told in read:
                    vectors.put(uid, text, about, n, source, words, said, told)
                self.read += len(read)
        with self._lock:
            if keep:
                self._games[key] = vectors
                self._games.move_to_end(key)
                if stale:  # only rows added can take the cache past its size (a recall over a series of 50
                    self._evict(keep=key)  # games fetched 50 times, each summing every game's size)
            if held_rows is not None:
                out = held_rows
            else:
                if stale:  # rows were added
                    found = list(map(vectors.rows.get, uids))
                out = np.array([-1 if r is None else r for r in found] if None in found else found, dtype=np.intp)
            if (keep and len(uids) >= MEMO_MIN and (out >= 0).all()
                    and np.array_equal(vectors.n_rows[out], np.asarray(ns, dtype=np.int64))):
                # every candidate held at the access count asked (none stored without an embedding, no count moved by
                # another recall meanwhile): the next fetch of these uids at these counts is this one
                out.flags.writeable = False
                vectors.fetched[id(uids)] = (uids, out, ns, vectors.changes)
                vectors.fetched.move_to_end(id(uids))
                while len(vectors.fetched) > MEMO_SIZE:
                    vectors.fetched.popitem(last=False)
            return vectors, out

    def lexical(self, parts: Sequence[tuple[GameVectors, npt.NDArray[np.intp]]],
                terms: Sequence[str]) -> list[npt.NDArray[np.float64]]:
        """:func:`graphmem.recall.lexical.bm25` of ``terms`` for the candidates of ``parts`` ((a game's vectors from
        :meth:`fetch`, each candidate's row in them) per game), computed under this cache's lock: a writing recall on
        another thread may be indexing a memory's new words meanwhile."""
        with self._lock:
            return bm25([(vectors.postings, rows) for vectors, rows in parts], terms)

    def recued(self, database: str | None, game: str, incarnation: str | None,
               cues: Sequence[Mapping[str, Any]]) -> int:
        """Bring held memories that a recall rewrote (in this process or another) up to date from what
        ``recall/context`` read of them (:attr:`graphmem.store.reader.CandidatesRead.recued`: the columns of
        ``recall/embeddings`` but the embedding, ``about`` and ``context``, of each memory the owner's change log
        names): those three never change once written, so :meth:`fetch` need not read them again. A memory not held
        (a new one) is left for :meth:`fetch`. Returns the memories brought up to date.
        """
        key = (database, game, incarnation or "")
        done = 0
        with self._lock:
            vectors = self._games.get(key) if incarnation else None
            if vectors is None:
                return 0
            for cue in cues:
                row = vectors.rows.get(str(cue["uid"]))
                if row is None or vectors.n[row] == int(cue["n"]):
                    continue
                vectors.set_source(row, _source_cue(cue))
                vectors.postings.rewrite(row, cue["text"], cue["keywords"])
                vectors.set_n(row, int(cue["n"]))
                done += 1
        return done

    def _read(self, driver: neo4j.Driver, database: str | None, uids: list[str]) -> list[_Read]:
        """(uid, text vector, about, n, source cue, (text, keywords, context), (conversation, line), the time its
        event was logged at) of each of ``uids`` stored with an embedding (``recall/embeddings``)."""
        records, _, _ = driver.execute_query(cypher("recall/embeddings"), uids=uids, database_=database,
                                             routing_=neo4j.RoutingControl.READ)
        found = [r for r in records if r["embedding"] is not None]
        if not found:
            return []
        raw = np.array([r["embedding"] for r in found], dtype=np.float32)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        texts: Matrix = (raw / np.where(norms > 0.0, norms, 1.0)).astype(np.float32)
        return [(str(r["uid"]), texts[i], tuple(r["about"] or ()), int(r["n"]), _source_cue(r),
                 (r["text"], r["keywords"], r["context"]), _said(r["said"]),
                 told_day(None if r["t"] is None else str(r["t"])))
                for i, r in enumerate(found)]

    def _evict(self, keep: tuple[str | None, str, str]) -> None:
        total = len(self)
        while total > self.max_memories and len(self._games) > 1:
            oldest = next(iter(self._games))
            if oldest == keep:
                break
            total -= self._games.pop(oldest).size
            log.debug("embedding cache: dropped %s", oldest[1])


def _said(said: Mapping[str, Any] | None) -> tuple[tuple[Hashable, ...] | None, int]:
    """(conversation, line) of a ``recall/embeddings`` row's ``said``; (None, 0) for a memory that is no statement."""
    talk = conversation_key(said)
    return (None, 0) if talk is None or said is None else (talk, int(said["line"]))


def _source_cue(record: Mapping[str, Any]) -> SourceCue:
    """The :class:`SourceCue` of a ``recall/embeddings`` row or of an entry of ``recall/context``'s ``recued``
    (:data:`NO_SOURCE` when it has no speaker or lacks the source properties: a memory stored before them)."""
    speaker = record["speaker"]
    if not speaker or record["c0"] is None or record["t_enc"] is None or record["s_enc"] is None:
        return NO_SOURCE
    return SourceCue(str(speaker), float(record["c0"]), float(record["source_k"] or 1.0), int(record["t_enc"]),
                     float(record["s_enc"]), bool(record["own"]), bool(record["flashbulb"]),
                     bool(record["misattributed"]))
