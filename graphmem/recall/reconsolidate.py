"""Reconsolidation of the recalled memories against the graph (SPEC 6 step 3), around the pure model.

For each recalled memory: its :class:`~graphmem.model.reconsolidation.MemoryState` (:func:`memory_state`), then
:func:`graphmem.model.reconsolidation.reconsolidate`, seeded by (seed, uid, access count). The similar memories of
the same owner that may donate a detail or a teller are read (``recall/similar``, :func:`read_similar`, one query
for all) only for the memories whose reconsolidation drew a detail import or a misattribution: the pipeline
passes the model a function in their place, which the model calls only then, and reconsolidates those memories
again with their donors (the same seed draws the same numbers). Donors come from the owner's recall candidates at
the recall phase (not archived: a memory too faded to come to mind lends nothing). :func:`update_row` turns each
result into the properties to write, and :func:`write_updates` writes them all in one managed write transaction
with one ``UNWIND`` statement (``recall/write``), rolled back if another recall changed one of the memories in
between.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import neo4j

from graphmem.errors import GraphmemError
from graphmem.model.clarity import lifecycle_state
from graphmem.model.details import Detail, details_from_json, details_to_json, render, search_keywords
from graphmem.model.distortion import access_load, distortion_risk, faded_since_encoding
from graphmem.model.params import Parameters, Profile
from graphmem.model.reconsolidation import MemoryState, Reconsolidation, SimilarMemory
from graphmem.model.source import source_belief, source_confidence
from graphmem.model.vocabulary import LifecycleState, SourceType
from graphmem.recall.types import Candidate
from graphmem.store.queries import cypher

__all__ = ["RecallConflict", "belief_at", "can_import", "can_misattribute", "flashbulbs_may_be_archived", "keywords",
           "memory_state", "needs_donors", "read_similar", "skips_archived", "update_row", "write_updates"]

LIVE = (LifecycleState.ACTIVE.value, LifecycleState.WARM.value, LifecycleState.ARCHIVED.value)


class RecallConflict(GraphmemError):
    """A recalled memory was changed by someone else between the read and the write; nothing was written."""


def flashbulbs_may_be_archived(params: Parameters) -> bool:
    """Whether the decay job can archive a flashbulb: only when the flashbulb floor is below the active band
    (every profile's RetrievalThreshold is below that band, a rule of the configuration, so a floored strength
    at or above it is never archived). Not with the shipped parameters (floor 0.8, active 0.40)."""
    return params.flashbulb.floor < params.lifecycle.active


def skips_archived(now: int, decayed_to: int, params: Parameters) -> bool:
    """Whether ``recall/similar`` may leave archived memories unread (through the index memory_recall): at
    ``now`` = ``decayed_to`` the stored lifecycle states are those at ``now``, and a memory archived then cannot lend
    a detail or a teller unless it is a flashbulb (:func:`flashbulbs_may_be_archived`)."""
    return now == decayed_to and not flashbulbs_may_be_archived(params)


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
                       believed_teller=c.believed_teller, details=c.details)


def belief_at(candidate: Candidate, now: int, params: Parameters) -> str:
    """The owner's belief about the source at ``now`` (SPEC 4.1): the provenance type, "unknown" once
    c = c0 * R(now - t_enc, S_enc)^k < 0.3 (the same closed form as the decay job)."""
    if candidate.source_type is None:
        return SourceType.UNKNOWN.value
    c = source_confidence(candidate.c0, now, candidate.t_enc, candidate.s_enc, max(1.0, candidate.source_k),
                          params.curve)
    return source_belief(_source_type(candidate.source_type), c, params)


def can_import(state: MemoryState, now: int, emotion_now: float, profile: Profile, params: Parameters) -> bool:
    """Whether a detail may be imported at this recall: rho > import_onset and emotion_now > import_emotion (the
    model's gate, with the access count after the recall). Such a memory needs every similar memory, with details.
    """
    r = params.reconsolidation
    faded = faded_since_encoding(now, state.t_enc, state.s_enc, params.curve)
    rho = distortion_risk(faded, access_load(state.n + 1, params), emotion_now, profile, params)
    return rho > r.import_onset and emotion_now > r.import_emotion


def can_misattribute(state: MemoryState, now: int, params: Parameters) -> bool:
    """Whether the teller may be misattributed: a teller, a source belief still known and source confidence below
    misattribution_confidence (the model's gate). Such a memory needs only the most similar memory whose teller
    is known and differs from the believed one."""
    if state.teller is None:
        return False
    c_src = source_confidence(state.c0, now, state.t_enc, state.s_enc, state.source_k, params.curve)
    known = source_belief(state.source_type, c_src, params) != SourceType.UNKNOWN.value
    return known and c_src < params.reconsolidation.misattribution_confidence


def needs_donors(state: MemoryState, now: int, emotion_now: float, profile: Profile, params: Parameters) -> bool:
    """Whether :func:`~graphmem.model.reconsolidation.reconsolidate` can use similar memories for ``state`` at all
    (:func:`can_import` or :func:`can_misattribute`): the gates before the model's draws. When False the result is
    the same with or without similar memories, and when only a misattribution is possible it is the same with the
    one donor ``recall/similar`` returns (unit tests hold both), so the similarity query reads only what can
    matter. (The pipeline reads donors later still, once a draw has asked for them.)
    """
    return can_import(state, now, emotion_now, profile, params) or can_misattribute(state, now, params)


def read_similar(driver: neo4j.Driver, database: str | None, game: str, player: str, now: int,
                 uids: Sequence[str], full: Sequence[str], similarity: float, *, stored: bool, curve: str,
                 threshold: float) -> dict[str, list[SimilarMemory]]:
    """The donors of each memory in ``uids``, in one read query (``recall/similar``).

    Donors come from the owner's recall candidates at ``now`` (the set ``recall/context`` ranks: not archived
    at ``now``). full : those of ``uids`` that may import a detail: all the other candidates with cosine >=
    ``similarity`` come back for them, with their details; for the others only the most similar one with a known
    teller other than the believed one (what a misattribution uses). similarity : a cosine in [-1, 1] (0.5:
    ``parameters.similarity.detail_import``). stored : :func:`skips_archived` for
    ``now``; curve : the game's forgetting curve; threshold : the RetrievalThreshold of memories without one.
    """
    if not uids:
        return {}
    min_score = (1.0 + similarity) / 2.0

    def work(tx: neo4j.ManagedTransaction) -> list[dict[str, Any]]:
        return [r.data() for r in tx.run(cypher("recall/similar"), game=game, player=player, now=now,
                                         stored=stored, curve=curve, threshold=threshold, uids=list(uids),
                                         full=list(full), min_score=min_score)]

    with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as session:
        rows = session.execute_read(work)
    out: dict[str, list[SimilarMemory]] = defaultdict(list)
    for row in rows:
        cosine = 2.0 * float(row["score"]) - 1.0
        out[str(row["uid"])].append(SimilarMemory(str(row["other"]), cosine,
                                                  details_from_json(row["details_json"] or "[]"), row["teller"]))
    return dict(out)


def keywords(details: Iterable[Detail], about: Iterable[str]) -> str:
    """The graph's ``keywords`` after reconsolidation: :func:`graphmem.model.details.search_keywords` (the kept
    names, place and day; a lost detail no longer cues)."""
    return search_keywords(details, about)


def update_row(candidate: Candidate, result: Reconsolidation, now: int, params: Parameters) -> dict[str, Any]:
    """The properties ``recall/write`` sets for one reconsolidated memory.

    text is re-rendered from the template with the new details (a memory without a template keeps its text);
    state is the lifecycle band of the new strength for active/warm/archived memories (SPEC 10), unchanged for a
    consolidation candidate.
    """
    c = candidate
    state = str(lifecycle_state(result.strength, c.threshold, params)) if c.state in LIVE else c.state
    return {
        "uid": c.uid, "n_before": c.n, "e_ref": result.e_ref, "t_ref": result.t_ref, "s": result.s, "n": result.n,
        "strength": result.strength, "details_json": details_to_json(result.details), "n_lost": result.n_lost,
        "fabricated": result.fabricated,
        "text": render(c.template, result.details) if c.template is not None else c.text,
        "keywords": keywords(result.details, c.about), "believed_teller": result.believed_teller,
        "misattributed": result.misattributed, "last_recalled": now, "state": state, "decayed_to": now,
    }


def write_updates(driver: neo4j.Driver, database: str | None, rows: Sequence[Mapping[str, Any]]) -> int:
    """Write every row in one managed write transaction (one UNWIND statement); returns the memories written.

    Raises RecallConflict, after rolling back, when a memory's access count changed since it was read.
    """
    if not rows:
        return 0

    def work(tx: neo4j.ManagedTransaction) -> int:
        record = tx.run(cypher("recall/write"), rows=[dict(r) for r in rows]).single()
        written = int(record["written"]) if record is not None else 0
        if written != len(rows):
            raise RecallConflict(f"{len(rows) - written} of {len(rows)} recalled memories changed while they were "
                                 "being recalled (a concurrent recall?); nothing was written: recall again")
        return written

    with driver.session(database=database) as session:
        return session.execute_write(work)
