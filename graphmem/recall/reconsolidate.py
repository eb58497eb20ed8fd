"""Reconsolidation of the recalled memories against the graph (docs/model.md#reconsolidation), around the pure model.

For each recalled memory: its :class:`~graphmem.model.reconsolidation.MemoryState` (:func:`memory_state`), then
:func:`graphmem.model.reconsolidation.reconsolidate`, seeded by (seed, uid, access count), with its donors: the
similar memories that may lend it a detail or a teller are the other memories recalled with it
(:func:`recalled_together`: cosine >= 0.5 of their text embeddings, which the recall pipeline keeps,
:func:`graphmem.recall.pipeline.similar_pairs`), since memories that come to mind together are the ones that blend.
:func:`update_row` turns each result into the properties to write, and :func:`write_updates` writes them all in one
managed write transaction, which first reads the recalled memories' rows and reconsolidates them, with one ``UNWIND``
statement (``recall/write``, run in one statement with the move fence and the version raise), rolled back if another
recall changed one of the memories in between.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

import neo4j

from graphmem.errors import RecallConflict
from graphmem.model.clarity import lifecycle_state
from graphmem.model.details import Detail, details_to_json, render, search_keywords
from graphmem.model.params import Parameters
from graphmem.model.reconsolidation import MemoryState, Reconsolidation, SimilarMemory
from graphmem.model.source import keeps_source, source_belief, source_confidence
from graphmem.model.vocabulary import LIVE_STATES, SourceType
from graphmem.recall.types import Candidate
from graphmem.store.reader import MemoryReader
from graphmem.store.versions import PlannedWrite

__all__ = ["Updates", "belief_at", "keywords", "memory_state", "recalled_together", "update_row", "write_updates"]


def _source_type(value: str | None) -> SourceType:
    try:
        found = SourceType(value or SourceType.INFERRED.value)
    except ValueError:
        return SourceType.INFERRED
    return SourceType.INFERRED if found is SourceType.UNKNOWN else found


def memory_state(candidate: Candidate, now: int) -> MemoryState:
    """The model's view of a candidate at phase ``now``.

    When ``now`` is before the memory's last rehearsal (t_ref > now), the encoding values stand in (e0 at t_enc,
    s_enc, no accesses), as in :func:`graphmem.recall.candidates.strength_now`; details and the believed teller
    are the current ones (the graph keeps no history of them).
    """
    c = candidate
    if c.t_ref > now:
        e_ref, t_ref, s, n = c.e0, c.t_enc, c.s_enc, 0
    else:
        e_ref, t_ref, s, n = c.e_ref, c.t_ref, c.s, c.n
    return MemoryState(uid=c.uid, e_ref=e_ref, t_ref=t_ref, s=s, n=n, salience=c.salience, t_enc=c.t_enc,
                       s_enc=c.s_enc, memory_type=c.memory_type, flashbulb=c.flashbulb, c0=c.c0,
                       source_k=max(1.0, c.source_k), source_type=_source_type(c.source_type), teller=c.teller,
                       believed_teller=c.believed_teller, details=c.details, own=c.own)


def belief_at(candidate: Candidate, now: int, params: Parameters, misattributed: bool = False) -> str:
    """The owner's belief about the source at ``now`` (docs/model.md#source-memory, docs/model.md#flashbulb-memories,
    docs/model.md#misattribution): the provenance type, "unknown" once c = c0 * R(now - t_enc, S_enc)^k < 0.3 (the same
    closed form as the decay job), never for the owner's own statements and actions, for flashbulbs, nor for a memory
    this recall attributed to another teller (``misattributed``: the owner names that teller)."""
    if candidate.source_type is None:
        return SourceType.UNKNOWN.value
    c = source_confidence(candidate.c0, now, candidate.t_enc, candidate.s_enc, max(1.0, candidate.source_k),
                          params.curve)
    return source_belief(_source_type(candidate.source_type), c, params,
                         keep=keeps_source(candidate.own, candidate.flashbulb, misattributed))


def recalled_together(candidates: Sequence[Candidate]) -> dict[str, tuple[SimilarMemory, ...]]:
    """The donors of each recalled memory: the other memories of the same recall similar to it (its ``similar``
    list: cosine >= ``parameters.similarity.detail_import``, 0.5, computed by the recall pipeline), most similar
    first, ties by uid.

    candidates : the recalled memories. A donor carries its details and believed teller as read, before this
    recall changed anything, so the result does not depend on the order in which the memories are reconsolidated.
    Why the recalled memories only: memories that come to mind together, cued by the same topic, are the ones
    that blend (a detail of a memory that does not come to mind cannot slip into another), and it bounds the work
    by k: k (k - 1) / 2 cosines of vectors the pipeline holds, no query.
    """
    by_uid = {c.uid: c for c in candidates}
    out: dict[str, tuple[SimilarMemory, ...]] = {}
    for c in candidates:
        donors = [SimilarMemory(uid, cosine, by_uid[uid].details, by_uid[uid].believed_teller or by_uid[uid].teller)
                  for uid, cosine in c.similar if uid in by_uid and uid != c.uid]
        out[c.uid] = tuple(sorted(donors, key=lambda d: (-d.similarity, d.uid)))
    return out


def keywords(details: Iterable[Detail], about: Iterable[str]) -> str:
    """The graph's ``keywords`` after reconsolidation: :func:`graphmem.model.details.search_keywords` (the kept
    names, place and day; a lost detail no longer cues)."""
    return search_keywords(details, about)


def update_row(candidate: Candidate, result: Reconsolidation, now: int, params: Parameters) -> dict[str, Any]:
    """The properties ``recall/write`` sets for one reconsolidated memory.

    text is re-rendered from the template with the new details (a memory without a template keeps its text);
    state is the lifecycle band of the new strength for active/warm/archived memories (docs/model.md#lifecycle-states),
    unchanged for a consolidation candidate.
    """
    c = candidate
    state = str(lifecycle_state(result.strength, c.threshold, params)) if c.state in LIVE_STATES else c.state
    return {
        "uid": c.uid, "n_before": c.n, "e_ref": result.e_ref, "t_ref": result.t_ref, "s": result.s, "n": result.n,
        "strength": result.strength, "details_json": details_to_json(result.details), "n_lost": result.n_lost,
        "fabricated": result.fabricated,
        "text": render(c.template, result.details) if c.template is not None else c.text,
        "keywords": keywords(result.details, c.about), "believed_teller": result.believed_teller,
        "misattributed": result.misattributed, "last_recalled": now, "state": state, "decayed_to": now,
    }


Updates = Callable[[neo4j.ManagedTransaction], tuple[Sequence[Mapping[str, Any]], Mapping[tuple[str, str], Sequence[str]]]]
"""What computes a writing recall's rows in its write transaction (:func:`write_updates`), reading there what it
needs: (the rows of ``recall/write``, :func:`update_row`; {(game, name): the uids among them of memories of a
player of another game}, the owner's earlier selves in a series, docs/model.md#series-of-games)."""


def write_updates(driver: neo4j.Driver, database: str | None, game: str, owner: str, updates: Updates,
                  reader: MemoryReader, keys: Collection[tuple[object, ...]] = ()) -> int:
    """Write the rows ``updates`` computes (memories of ``owner`` in ``game``, and of the players of other games it
    names) in one managed write transaction: ``updates`` runs first in it (it reads the recalled memories' rows there,
    one read transaction less, and reconsolidates them), then one UNWIND statement, run in one statement with the
    move fence and the version raise, through ``reader`` (:meth:`graphmem.store.reader.MemoryReader.write`: the
    players' memory versions raised and the memories written logged, so that the next read of each, in this process
    or another, reads them again; ``keys``: what the reader holds their candidates under). A transaction the driver
    retries runs ``updates`` again. Returns the memories written (0 when there was nothing to write: no statement
    runs then).

    Raises RecallConflict, after rolling back, when a memory's access count changed since it was read.
    """
    expected: list[int] = []

    def planned(tx: neo4j.ManagedTransaction) -> PlannedWrite | None:
        rows, also = updates(tx)
        if not rows:
            return None
        expected[:] = [len(rows)]
        elsewhere = {uid for uids in also.values() for uid in uids}
        mine = [str(r["uid"]) for r in rows if str(r["uid"]) not in elsewhere]
        return PlannedWrite({"rows": sorted((dict(r) for r in rows), key=lambda r: r["uid"])}, {owner: mine}, also)

    def check(record: neo4j.Record) -> int:
        written = int(record["written"])
        if written != expected[0]:
            raise RecallConflict(f"{expected[0] - written} of {expected[0]} recalled memories changed while they "
                                 "were being recalled (a concurrent recall?); nothing was written: recall again")
        return written

    written, _, _ = reader.write(driver, database, game, [owner], "recall/write", planned, check, keys)
    return written or 0
