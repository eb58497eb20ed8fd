"""The reader of recall's candidates: one owner of what a process holds of each player's candidates between recalls,
which reads them from Neo4j, writes through them, and learns of every change, its own writes' included, by reading.

**What it holds.** Per owner (and recall phase), the last candidates ``recall/context`` read (:class:`HeldCandidates`:
node ids, uids, access counts, strengths, flashbulb flags and thresholds, with the game's incarnation and
``decayed_to``, the phase and the owner's memory version they were read at, :mod:`graphmem.store.versions`), the
rows ``recall/memories`` read of the memories recalled from them (:attr:`HeldCandidates.shown`), and the uid of
each Memory node id met (:meth:`MemoryReader.uids`: the query returns node ids, numbers being cheaper to decode).

**How it stays true.** Every write that changes an owner's memories raises the owner's version, in its transaction
and again once it has committed, and a writing recall or a live batch logs the memories it changed
(:mod:`graphmem.store.versions`). So the candidates held are used as they are while the four values they were read
at still match (``fresh``: an owner asked several questions in a row pays the read of its index entries once), and
brought up to the current version by reading again only the memories the owner's change log names when it covers
the version held (``patched``: those rows are replaced where they stand, so a memory that stays a candidate keeps
its place and the sequence of uids stays the one the process already knows, :meth:`HeldCandidates.patched`); after
a write that did not say what it changed, everything is read again. A writing recall is no exception: what it
wrote reaches the candidates held by the same patched read as another process's write would, never by changing
the held candidates from what the recall computed (a cache that its pipeline patched after writing was state with
two owners).

**The write.** :meth:`MemoryReader.write` runs a writer's transaction through
:func:`graphmem.store.versions.run_raising_versions`. With ``background`` (a process that owns its driver, such
as ``graphmem serve``) the second raise, which only has to follow the commit, runs on the reader's own thread, the
raises of the writes within :data:`RAISE_WINDOW` in one transaction; an owner's next read in the process waits for
its owner's raise (:meth:`held`), and :meth:`settle` must run before the driver closes.

It holds no game state: whatever it holds can be read again, a restart loses nothing, and several processes serving
one Neo4j each keep their own. It is thread-safe: a lock guards what it holds, never a query.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, TypeVar, cast

import neo4j
import numpy as np
import numpy.typing as npt

from graphmem.model.source import OWN_KINDS
from graphmem.store.queries import cypher
from graphmem.store.versions import PlannedWrite, raise_after_commit, run_raising_versions

__all__ = ["DEFAULT_MAX_CANDIDATES", "RAISE_WINDOW", "CandidatesRead", "HeldCandidates", "MemoryReader",
           "held_from_row"]

log = logging.getLogger(__name__)
T = TypeVar("T")

Pair = tuple[str, str]
"""(game, player name) of a memory version."""
Key = tuple[object, ...]
"""What one owner's candidates are held under: everything of a read that decides them but the store (the database,
game, player, recall phase and the parameters that choose candidates)."""

DEFAULT_MAX_CANDIDATES = 100_000
"""Candidates (and node ids) a :class:`MemoryReader` holds by default, over every owner."""

RAISE_WINDOW = 0.05
"""Seconds the reader's thread waits for more writes before it makes their second raises in one transaction
(:meth:`MemoryReader.write` with ``background``), unless a read of one of their owners in this process asks for it
sooner. A second raise alone was a whole write transaction per writing recall: 3.2 ms of Neo4j's CPU and ~1 ms of
the process's (bench/README.md, "CPU per writing recall")."""


@dataclass(frozen=True)
class HeldCandidates:
    """An owner's candidates as ``recall/context`` read them: read at the game's ``incarnation`` and ``decayed_to``, the
    recall phase ``now`` and the owner's ``version`` (:mod:`graphmem.store.versions`). Parallel arrays of shape
    (count,), read-only: ``ids`` (node ids, int64), ``uids``, ``ns`` (access counts), ``strengths`` (float64, m at
    ``now``), ``flashbulbs`` (bool), ``thresholds`` (float64).

    ``shown``: {uid: the row ``recall/memories`` read of a memory recalled from these candidates}, each valid at the
    access count ``n`` it carries. Rows are kept exactly as long as the candidates are (:meth:`patched` drops the
    memories it reads again, a full read starts empty), and a recall whose memories are all shown at the access count
    it ranked them at reads none (:meth:`MemoryReader.read_memories`)."""

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
    shown: dict[str, Mapping[str, Any]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for values in (self.ids, self.strengths, self.flashbulbs, self.thresholds):
            values.flags.writeable = False  # shared by every recall that uses them

    def patched(self, version: int, changed: Collection[str], read: HeldCandidates) -> HeldCandidates:
        """These candidates brought to the owner's ``version`` by reading again only the memories ``changed`` (uids,
        from the owner's change log, :mod:`graphmem.store.versions`); ``read`` holds those of ``changed`` that are
        candidates now, as ``recall/context`` read them. A memory of ``changed`` held and read again takes its new
        values in its place; one held and not read (no longer a candidate) is dropped; one read and not held (a new
        memory, or one that became a candidate) is appended. When none is dropped or appended, ``uids`` is this
        sequence itself, so the rows a process found for it stay valid
        (:meth:`graphmem.recall.vectors.EmbeddingCache.fetch` then checks the access counts alone: looking up
        10,000 uids again was most of what another's write cost an owner of 10,000 memories). The ranking never
        depends on the order of the rows."""
        gone = set(changed)
        new_at = {uid: i for i, uid in enumerate(read.uids)}
        at = self.positions if gone else {}
        places = sorted(at[uid] for uid in gone if uid in at)
        dropped = [i for i in places if self.uids[i] not in new_at]
        placed = {self.uids[i] for i in places} - {self.uids[i] for i in dropped}
        added = [i for i, uid in enumerate(read.uids) if uid not in placed]
        shown = {uid: row for uid, row in dict(self.shown).items() if uid not in gone}  # a copy: other threads add
        if not dropped and not added:
            ids, strengths = self.ids.copy(), self.strengths.copy()
            flashbulbs, thresholds = self.flashbulbs.copy(), self.thresholds.copy()
            ns = list(self.ns)
            for i in places:
                j = new_at[self.uids[i]]
                ids[i], ns[i], strengths[i] = read.ids[j], read.ns[j], read.strengths[j]
                flashbulbs[i], thresholds[i] = read.flashbulbs[j], read.thresholds[j]
            same = replace(self, version=version, ids=ids, ns=tuple(ns), strengths=strengths, flashbulbs=flashbulbs,
                           thresholds=thresholds, shown=shown)
            if "positions" in self.__dict__:  # the same sequence of uids: the places found are still its places
                same.__dict__["positions"] = self.positions
            return same
        keep = np.ones(len(self.uids), dtype=bool)
        keep[places] = False
        uids = self.uids if keep.all() else tuple(u for u, k in zip(self.uids, keep) if k)
        ns_kept = self.ns if keep.all() else tuple(n for n, k in zip(self.ns, keep) if k)
        return replace(
            self, version=version, ids=np.concatenate([self.ids[keep], read.ids]), uids=uids + read.uids,
            ns=ns_kept + read.ns, strengths=np.concatenate([self.strengths[keep], read.strengths]),
            flashbulbs=np.concatenate([self.flashbulbs[keep], read.flashbulbs]),
            thresholds=np.concatenate([self.thresholds[keep], read.thresholds]), shown=shown)

    @cached_property
    def positions(self) -> Mapping[str, int]:
        """{uid: its place in ``uids``}: built on first use (a cache of what the frozen fields decide, which
        ``functools.cached_property`` keeps in the instance's ``__dict__``), and handed on by :meth:`patched` to the
        candidates it leaves in the same sequence, so that a patched read finds the few memories logged without a scan
        of every uid (1-2.5 ms of each read after a write for an owner of 10,000 candidates, on 2 loaded cores)."""
        return {uid: i for i, uid in enumerate(self.uids)}

    @property
    def known(self) -> dict[str, object]:
        """What ``recall/context`` compares (its ``$known`` parameter)."""
        return {"incarnation": self.incarnation, "version": self.version, "now": self.now,
                "decayed_to": self.decayed_to}


def held_from_row(row: Mapping[str, Any], uids: Sequence[str | None]) -> HeldCandidates:
    """The candidates of a ``recall/context`` (or ``recall/earlier_context``) row that read them, their uids given
    (None: a node gone since, left out)."""
    kept = None if None not in uids else np.array([u is not None for u in uids], dtype=bool)

    def column(name: str, dtype: type) -> npt.NDArray[Any]:
        values: npt.NDArray[Any] = np.array(row[name], dtype=dtype)
        return values if kept is None else values[kept]

    return HeldCandidates(
        incarnation=str(row["incarnation"] or ""), version=int(row["version"]), now=int(row["now"]),
        decayed_to=int(row["decayed_to"] or 0), ids=column("ids", np.int64),
        uids=tuple(cast(list[str], uids)) if kept is None else tuple(u for u in uids if u is not None),
        ns=tuple(column("ns", np.int64).tolist()), strengths=column("strengths", np.float64),
        flashbulbs=column("flashbulbs", bool), thresholds=column("thresholds", np.float64))


@dataclass(frozen=True)
class CandidatesRead:
    """What :meth:`MemoryReader.read_candidates` returns: the ``recall/context`` row (its owner, working memory and
    conflicts; the candidates' columns are in ``held``), the owner's candidates now, and ``recued``: of each memory the
    read found changed since the candidates held (the change log's), what ``recall/embeddings`` reads but the
    embedding, ``about`` and ``context``, which never change once written ([] after a fresh or full read); their rows
    as ``recall/memories`` reads them are in ``held.shown``."""

    row: Mapping[str, Any]
    held: HeldCandidates
    recued: Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class _Raise:
    """A write's second raise waiting on the reader's thread."""

    raised: list[Pair]
    future: Future[None]


class MemoryReader:
    """Reads recall's candidates and holds them between recalls, versioned (see the module docstring).

    max_candidates : int >= 0, the most candidates held over every owner, and the most node ids whose uid is held
    (0: nothing is kept between calls). background : bool, :meth:`write` returns once its write has committed and
    leaves the second raise to this reader's thread; then :meth:`settle` must run before the driver closes.
    One reader serves one driver and database (a :class:`graphmem.MemoryService` owns one, through its
    :class:`graphmem.recall.vectors.EmbeddingCache`).
    """

    def __init__(self, max_candidates: int = DEFAULT_MAX_CANDIDATES, *, background: bool = False) -> None:
        self.max_candidates = max_candidates
        self.background = background
        self._candidates: OrderedDict[Key, HeldCandidates] = OrderedDict()
        self._held_total = 0  # candidates held over every owner: summing them on every keep was O(owners)
        self._uids: OrderedDict[tuple[str | None, str, str], dict[int, str]] = OrderedDict()
        self._lock = threading.Lock()
        self._settling: dict[Key, Future[None]] = {}
        self._settler: ThreadPoolExecutor | None = None
        self._raises: list[_Raise] = []
        self._raise_all: Callable[[list[Pair]], Mapping[Pair, int]] | None = None
        self._raising = False  # a batch of raises is queued on the thread and has not taken them yet
        self._hurry = threading.Event()
        self.candidates_reused = 0
        """Reads whose candidates were not read again (held, and still what the store says)."""
        self.candidates_patched = 0
        """Reads that read again only the memories the owner's change log names (:mod:`graphmem.store.versions`)."""
        self.memories_read = 0
        """Recalled memories whose rows were read (``recall/memories``): not shown by the candidates held."""

    def clear(self) -> None:
        """Drop everything held."""
        with self._lock:
            self._candidates.clear()
            self._held_total = 0
            self._uids.clear()

    def held(self, key: Key, *, wait: bool = True) -> HeldCandidates | None:
        """The candidates held under ``key``, or None. First waits for the second raise of a write of that owner
        made through this reader (``wait=False``: not), so that the read after it sees the version it leaves."""
        if wait:
            self.settle(key)
        with self._lock:
            held = self._candidates.get(key)
            if held is not None:
                self._candidates.move_to_end(key)
            return held

    def keep(self, key: Key, held: HeldCandidates) -> None:
        """Hold ``held`` under ``key`` (replacing what was there; nothing without an incarnation); owners used least
        recently are dropped once more than ``max_candidates`` candidates are held in all."""
        if self.max_candidates <= 0 or len(held.uids) > self.max_candidates or not held.incarnation:
            return
        with self._lock:
            before = self._candidates.get(key)
            self._held_total += len(held.uids) - (len(before.uids) if before is not None else 0)
            self._candidates[key] = held
            self._candidates.move_to_end(key)
            while self._held_total > self.max_candidates:
                _, dropped = self._candidates.popitem(last=False)
                self._held_total -= len(dropped.uids)

    def uids(self, tx: neo4j.ManagedTransaction, database: str | None, game: str, incarnation: str | None,
             ids: Sequence[int]) -> list[str | None]:
        """The uid of each Memory node id in ``ids``, in order (None for a node gone since ``ids`` were read).

        tx : the read transaction that read ``ids``: a node id names a node only while it exists (Neo4j reuses the
        id of a deleted node), so the ids not held are resolved in it (``recall/uids``, one query). Held ids are the
        game incarnation's own: a memory is deleted only with its game, and a game stored again is another
        incarnation. Why ids and not uids: the client's share of reading 10,000 candidates was 9 ms as rows with uids
        and element ids, 2 ms as lists of node ids (graphmem/recall/__init__.py). A game without an ``incarnation``
        is resolved every time and not kept.
        """
        key = (database, game, incarnation or "")
        keep = bool(incarnation) and self.max_candidates > 0
        with self._lock:
            known = self._uids.get(key, {}) if incarnation else {}
            found = list(map(known.get, ids))
        if None not in found:
            return found
        missing = [i for i, u in zip(ids, found) if u is None]
        read = {int(r["id"]): str(r["uid"]) for r in tx.run(cypher("recall/uids"), ids=list(dict.fromkeys(missing)))}
        if not keep:
            return [known.get(i) or read.get(i) for i in ids]
        with self._lock:
            known = self._uids.setdefault(key, {})
            known.update(read)
            self._uids.move_to_end(key)
            total = sum(len(u) for u in self._uids.values())
            while total > self.max_candidates and len(self._uids) > 1 and next(iter(self._uids)) != key:
                total -= len(self._uids.popitem(last=False)[1])
            return [known.get(i) for i in ids]

    def read_candidates(self, driver: neo4j.Driver, database: str | None, key: Key, game: str,
                        values: Mapping[str, Any]) -> CandidatesRead | None:
        """Run ``recall/context`` once, in a read transaction, with ``values`` (every parameter but ``known``, which
        is what this reader holds under ``key``), and hold the candidates it finds under ``key`` (see the module
        docstring: fresh, patched or read in full). None when ``game`` is not stored."""
        held = self.held(key)

        def work(tx: neo4j.ManagedTransaction) -> tuple[dict[str, Any], list[str | None] | None] | None:
            record = tx.run(cypher("recall/context"), dict(values), known=None if held is None else held.known).single()
            if record is None:
                return None
            # dict(record), not record.data(): data() walks every value of the lists to convert graph types, ~100 ms
            # for an owner of 10,000 candidates; this row holds none
            row = dict(record)
            if row["fresh"]:
                return row, None
            return row, self.uids(tx, database, game, row["incarnation"], row["ids"])

        with _read_session(driver, database) as session:
            read = session.execute_read(work)
        if read is None:
            return None
        row, uids = read
        return self.take(key, held, row, uids)

    def take(self, key: Key, held: HeldCandidates | None, row: Mapping[str, Any],
             uids: Sequence[str | None] | None) -> CandidatesRead:
        """Hold what a read of ``recall/context`` (or one self's row of ``recall/earlier_context``) found under
        ``key`` and return it: the candidates ``held`` as they are when the read found them fresh (``uids`` None),
        brought up to date with the memories read again when it followed the change log (``row["changed"]``; their
        rows shown as ``recall/memories`` reads them), or as read in full. ``held``: what this reader held under
        ``key`` when the read was made, ``uids``: the uid of each node id of the row (:meth:`uids`)."""
        if uids is None:
            assert held is not None  # the query found the candidates fresh only against what was held
            self.candidates_reused += 1
            return CandidatesRead(row, held, [])
        if row["changed"] is not None:
            assert held is not None  # the query patches only what was held
            held = held.patched(int(row["version"]), row["changed"], held_from_row(row, uids))
            for shown in row["shown"]:  # the rows of the memories read again, as recall/memories reads them
                held.shown[str(shown["uid"])] = shown
            self.candidates_patched += 1
        else:
            held = held_from_row(row, uids)
        self.keep(key, held)
        return CandidatesRead(row, held, row["recued"] or [])

    def read_memories(self, driver: neo4j.Driver, database: str | None, player: str,
                      recalled: Sequence[tuple[str, int, dict[str, Mapping[str, Any]]]]) -> list[Mapping[str, Any]]:
        """The full properties of the recalled memories (``recall/memories``), in their order, with ``own``, for a
        recall that writes nothing (a writing recall reads them in its write transaction: :meth:`memories_in`).

        recalled : (uid, the access count it was ranked at, the rows the candidates it was ranked among show,
        :attr:`HeldCandidates.shown`) of each memory. A row shown at that access count is taken as it is (a memory
        recalled before, or read again after a write by :meth:`read_candidates`); the others are read in one read
        transaction and shown from then on (an owner's recalls in a row then read none: a second transaction, 4-6 ms,
        bench/README.md). A memory gone since it was ranked has no row.
        """
        missing = _missing(recalled)
        read: dict[str, Mapping[str, Any]] = {}
        if missing:
            with _read_session(driver, database) as session:
                read = session.execute_read(self._read_rows, player, missing)
            for uid, _, shown in recalled:
                if uid in read:
                    shown[uid] = read[uid]
        return _in_order(recalled, missing, read)

    def memories_in(self, tx: neo4j.ManagedTransaction, player: str,
                    recalled: Sequence[tuple[str, int, dict[str, Mapping[str, Any]]]]) -> list[Mapping[str, Any]]:
        """:meth:`read_memories` in the caller's transaction ``tx``: a writing recall's write transaction
        (:meth:`write` with a plan), one transaction less than a read of their own (bench/README.md, "CPU per
        writing recall"). The rows read are not shown from then on: the recall rewrites every one of them, and the
        owner's next read reads them again from the change log, rows included (:meth:`read_candidates`)."""
        missing = _missing(recalled)
        return _in_order(recalled, missing, self._read_rows(tx, player, missing) if missing else {})

    def _read_rows(self, tx: neo4j.ManagedTransaction, player: str,
                   uids: Collection[str]) -> dict[str, Mapping[str, Any]]:
        """{uid: its row} of the memories ``uids`` that exist, read in ``tx`` (``recall/memories``)."""
        read = {str(r["memory"]["uid"]): r["memory"] for r in tx.run(cypher("recall/memories"), uids=sorted(uids),
                                                                     player=player, own_kinds=list(OWN_KINDS))}
        with self._lock:
            self.memories_read += len(read)
        return read

    def write(self, driver: neo4j.Driver, database: str | None, game: str, owners: Collection[str], query: str,
              planned: PlannedWrite | Callable[[neo4j.ManagedTransaction], PlannedWrite | None],
              check: Callable[[neo4j.Record], T], keys: Collection[Key]
              ) -> tuple[T | None, dict[Pair, int], dict[Pair, int]]:
        """Run ``query`` (its name under ``cypher/``) as ``planned`` (its parameters and the memories it changes, or
        what plans them first in the transaction; ``check`` reads its row and may raise to roll back) in one write
        statement with the move fence and the raise of the memory versions of ``owners`` of ``game`` and of the
        players of other games it changes, logging the memories it changes
        (:func:`graphmem.store.versions.run_raising_versions`, which gives the arguments' meaning). The second raise
        follows the commit: at once, or with ``background`` on this reader's thread, and the reads of ``keys`` (the
        candidates of the players written) wait for it.

        Nothing held changes: the next read of each owner finds the change log and reads what was written
        (:meth:`read_candidates`). Returns (what ``check`` returned, None when the plan was None and nothing was
        written; {pair: version after the first raise}; {pair: version after the second}, {} when it is left to the
        thread or failed).
        """
        # the planner's "unknown property" notifications are expected of a plan's reads, as in _read_session
        with driver.session(database=database, notifications_min_severity="OFF") as session:
            result, first, second = run_raising_versions(session, game, owners, query, planned, check,
                                                         raise_after=not self.background)
        if self.background and first:
            self._raise_later(keys, list(first), lambda pairs: raise_after_commit(driver, database, pairs))
        return result, first, second

    def settle(self, key: Key | None = None) -> None:
        """Wait for the second raises :meth:`write` left to the thread for ``key`` (None: every one), cutting the
        window short. Call it before closing the driver (:meth:`graphmem.service.MemoryService.close` does)."""
        with self._lock:
            pending = (list(self._settling.values()) if key is None
                       else [self._settling[key]] if key in self._settling else [])
        if pending:
            self._hurry.set()
        for future in pending:
            future.result()

    def _raise_later(self, keys: Collection[Key], raised: list[Pair],
                     raise_all: Callable[[list[Pair]], Mapping[Pair, int]]) -> None:
        item = _Raise(raised, Future())
        with self._lock:
            if self._settler is None:
                self._settler = ThreadPoolExecutor(1, thread_name_prefix="graphmem-raise")
            self._raises.append(item)
            self._raise_all = raise_all  # one reader serves one driver and database: any write's will do
            for key in keys:
                self._settling[key] = item.future
            if not self._raising:
                self._raising = True
                self._settler.submit(self._raise_batch)

        def done(_: Future[None]) -> None:
            with self._lock:
                for key in keys:
                    if self._settling.get(key) is item.future:
                        del self._settling[key]

        item.future.add_done_callback(done)

    def _raise_batch(self) -> None:
        self._hurry.wait(RAISE_WINDOW)
        with self._lock:
            batch, self._raises, self._raising = self._raises, [], False
            raise_all = self._raise_all
            self._hurry.clear()
        try:
            pairs = sorted({pair for item in batch for pair in item.raised})
            if pairs and raise_all is not None:
                raise_all(pairs)  # logs and gives {} when it fails: the next reads read what the store holds
        except Exception:
            log.exception("the second raise after a write failed: its owners' next reads read their candidates again")
        finally:
            for item in batch:
                item.future.set_result(None)


def _missing(recalled: Sequence[tuple[str, int, Mapping[str, Mapping[str, Any]]]]) -> set[str]:
    """The uids of ``recalled`` (see :meth:`MemoryReader.read_memories`) whose rows are not shown at the access count
    they were ranked at."""
    return {uid for uid, n, shown in recalled if uid not in shown or shown[uid].get("n") != n}


def _in_order(recalled: Sequence[tuple[str, int, Mapping[str, Mapping[str, Any]]]], missing: Collection[str],
              read: Mapping[str, Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The row of each of ``recalled``, in order: read (``read``) when ``missing``, else as shown; none for a memory
    gone."""
    rows = {uid: shown[uid] for uid, _, shown in recalled if uid not in missing}
    rows.update(read)
    return [rows[uid] for uid, _, _ in recalled if uid in rows]


def _read_session(driver: neo4j.Driver, database: str | None) -> neo4j.Session:
    # Conflict nodes and their properties may not exist yet in a database: the planner's "unknown property"
    # notifications are expected, so they are not asked for.
    return driver.session(database=database, default_access_mode=neo4j.READ_ACCESS, notifications_min_severity="OFF")
