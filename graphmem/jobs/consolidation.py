"""The consolidation job: repeated, similar memories of one owner become one Summary memory (docs/jobs.md#consolidation).

``graphmem consolidate`` calls :func:`consolidate`. For each owner (one player, or every player of the game):

1. read the candidates (``cypher/jobs/consolidate_candidates.cypher``): live memories (active, warm, archived)
   that are not summaries, not flashbulbs and not in an open conflict;
2. split them into groups that state the same kind of fact (:func:`consolidation_key`), cluster each group's
   embeddings (:func:`graphmem.jobs.clustering.clusters`, scikit-learn's ``AgglomerativeClustering``: average
   linkage, cosine distance below ``parameters.consolidation.distance_threshold``) and keep clusters of
   ``min_cluster_size`` or more;
3. plan one summary per cluster (:func:`plan_summary`, pure): text from the :class:`Summariser`,
   ``E0 = min(1, strongest member's current strength + strength_boost)``, ``S = stability_factor * largest
   member S``, type semantic, uid ``{game}/summary/{owner}/{sha1(sorted member uids)[:16]}``;
4. write the owner's summaries, edges and member states in one transaction
   (``cypher/jobs/consolidate_write.cypher``).

Memory use is bounded by the largest owner (the O(n^2) distances of its candidates), not by the game. Because the
members of a summary leave the candidate set and the write MERGEs by a uid derived from the members, re-running
adds nothing, and a run killed half-way leaves whole owners done or untouched: the next run completes it.
Summaries are never clustered again (no summaries of summaries): a summary already stands for its cluster, and
counting and dating members of members would blur the "N times, days A-B" it states. The lifecycle state
``candidate`` (docs/model.md#lifecycle-states) is never needed: an owner's write is one transaction, so no memory is
ever half-consolidated.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import neo4j
import numpy as np

from graphmem.jobs.clustering import clusters
from graphmem.jobs.scope import Scope, read, resolve_scope, session
from graphmem.jobs.summarise import ExtractiveSummariser, Member, Summariser, TemplatingSummariser
from graphmem.model.clarity import lifecycle_state
from graphmem.model.details import any_fabricated, details_from_json, n_lost
from graphmem.model.params import Parameters
from graphmem.model.source import initial_source_confidence, source_belief, source_confidence
from graphmem.model.vocabulary import MemoryType, SourceType
from graphmem.store.keys import player_uid, scope_token, summary_uid
from graphmem.store.queries import cypher
from graphmem.store.versions import write_raising_versions
from graphmem.store.writer import Progress

__all__ = ["ConsolidationReport", "PlannedSummary", "consolidate", "consolidation_key", "plan_summary"]

log = logging.getLogger(__name__)



@dataclass(frozen=True)
class PlannedSummary:
    """One summary the job writes (or, with dry_run, would write).

    uid : str; owner : str; members : uids of the members, sorted; props : every Memory property of the summary
    (docs/graph-model.md), embedding included
    """

    uid: str
    owner: str
    members: tuple[str, ...]
    props: Mapping[str, Any]

    def brief(self) -> dict[str, Any]:
        """What a report shows: uid, owner, member count and uids, text, day span, e0, s, state, source."""
        p = self.props
        return {"uid": self.uid, "owner": self.owner, "members": len(self.members), "member_uids": list(self.members),
                "text": p["text"], "day_first": p["day_first"], "day_last": p["day_last"], "e0": p["e0"],
                "s": p["s"], "state": p["state"], "source_type": p["source_type"], "teller": p["teller"]}


STATEMENT_KINDS = frozenset({"say", "lesson"})
"""Memory kinds whose content is free text: repeated statements and lessons consolidate by meaning alone."""


def consolidation_key(member: Member) -> tuple[Any, ...]:
    """Which memories may share a summary: only those with the same key (docs/jobs.md#consolidation's clustering then
    runs inside each group; it is block-diagonal connectivity in scikit-learn's terms).

    Sentence embeddings put "Riley voted to banish Taylor" and "Taylor voted to banish Riley", "The traitors have
    decided to murder Ellis" and "... to murder Sudz", or "I vote for Taylor" and "I vote for Riley", within cosine
    distance 0.35 of each other: clustering on the embedding alone merges different facts, and the summary's
    "(N similar memories) <medoid>" then misreports all but one of them. A summary stands for *repeated* memories
    (docs/jobs.md#consolidation), so the key keeps apart what is about something else:

    - statements (say) and lessons: the kind, the claims they carry, whether the owner said it (the owner's words
      carry no "who" detail) and how the owner came to know it (source type: a traitors'-meeting whisper does not
      merge with the round table); within that, statements group by meaning, whoever they mention (requiring the
      same mentioned players as well left 4 of the 40 real games with nothing to consolidate: 277 summaries
      instead of 650);
    - every other kind (vote, murder, banish, reveal, recruit, observe, propose, outcome, end): the kind, the
      claims, the players the memory is about, the remembered who and whom details and what was done (the memory's
      template without its quoted reason, or its whole text when the template is the bare content, as for a quest
      outcome): an event of the game is a distinct fact unless the owner remembers the same actor doing the same
      thing to the same players. Without the last part, "Diana's team was rejected, 1 vote to 4" and "Alice's team
      was approved, 3 to 2", or a vote to approve and a vote to reject the same team, shared one summary.

    member : one candidate memory. Returns a hashable key.
    """
    remembered: dict[str, str | None] = {}
    for detail in details_from_json(member.details_json):
        if detail.kind in ("who", "whom"):
            remembered[detail.kind] = None if detail.lost else detail.value
    claims = frozenset(tuple(c) if isinstance(c, list) else tuple(sorted(c.items())) for c in
                       json.loads(member.claims_json or "[]"))
    if member.kind in STATEMENT_KINDS:
        return member.kind, claims, "who" not in remembered, member.source_type
    return (member.kind, claims, frozenset(member.about), remembered.get("who"), remembered.get("whom"),
            _what_was_done(member))


def _what_was_done(member: Member) -> str:
    """The fact a non-statement memory states, without the free-text reason a vote or proposal may quote."""
    template = member.template or member.text
    if template.strip() == "{content}":
        return member.text
    return template.split(": {content}", 1)[0]


def _common(values: Sequence[str | None]) -> str | None:
    return values[0] if values and all(v == values[0] for v in values) else None


def plan_summary(game: str, owner: str, members: Sequence[Member], phase: int, curve: str, params: Parameters,
                 summariser: Summariser | None = None) -> PlannedSummary:
    """The summary of one cluster (docs/jobs.md#consolidation). Pure.

    members : the cluster, >= 1 memories of ``owner`` (any order); phase : int, the game's ``decayed_to`` (the
    members' ``strength`` is their strength there, and the summary is formed there); curve : the game's
    forgetting curve; summariser : default :class:`ExtractiveSummariser`.

    - text (and template/details when the summariser is a :class:`TemplatingSummariser`) from the summariser;
    - ``e0 = e_ref = strength = min(1, max member strength + consolidation.strength_boost)``, ``t_ref`` = the
      formation phase (``max(phase, latest member t_enc)``), ``n = 0``;
    - ``s = s_enc = consolidation.stability_factor * max member s`` (docs/jobs.md#consolidation: 1.5 x the largest member S);
    - ``t_enc`` = the latest member's phase, ``day`` = ``day_last`` = its day, ``day_first`` = the earliest day;
    - type semantic, kind summary, no event; ``state`` by the lifecycle bands (docs/model.md#lifecycle-states) at ``e0``;
    - source: the members' provenance type when they all share it, with their teller when that is shared too
      (the owner heard it from the same person each time) and no teller otherwise (heard from several people: the
      prompt says "[Someone told you]"); ``inferred`` with no teller when the types differ (the gist is the owner's
      own abstraction over several kinds of source); ``c0`` of that type; ``source_confidence`` at ``phase`` on
      the source clock from ``t_enc``;
    - ``about`` and ``keywords``: the union over the members; ``scope``: the owner's full-text token
      (:func:`graphmem.ingest.records.scope_token`, as ingest writes it); ``claims_json``: the medoid's (its words
      are the text); ``embedding``: the normalised mean of the members' embeddings (the cluster's centre, what a
      topic should match); the strongest member's ``threshold``, ``decay_rate`` and ``source_k`` (one owner: equal).
    """
    summariser = summariser or ExtractiveSummariser()
    ordered = sorted(members, key=lambda m: m.uid)
    cfg = params.consolidation
    uids = [m.uid for m in ordered]
    uid = summary_uid(game, owner, uids)
    text = summariser.summarise(ordered)
    if isinstance(summariser, TemplatingSummariser):
        template, details_json = summariser.wording(ordered)
    else:
        template, details_json = text, "[]"
    strongest = max(ordered, key=lambda m: (m.strength, m.uid))
    latest = max(ordered, key=lambda m: (m.t_enc, m.uid))
    e0 = min(1.0, max(m.strength for m in ordered) + cfg.strength_boost)
    s = cfg.stability_factor * max(m.s for m in ordered)
    t_ref = max(phase, latest.t_enc)
    tellers = [m.teller for m in ordered]
    source_type, teller = _common([m.source_type for m in ordered]), _common(tellers)
    if source_type is None:  # several kinds of source
        source_type, teller = SourceType.INFERRED.value, None
    c0 = initial_source_confidence(source_type, params)
    confidence = source_confidence(c0, t_ref, latest.t_enc, s, strongest.source_k, curve)
    mean = np.mean(np.stack([np.asarray(m.embedding, dtype=np.float64) for m in ordered]), axis=0)
    norm = float(np.linalg.norm(mean))
    embedding = (mean / norm if norm > 0 else mean).tolist()
    about = sorted({name for m in ordered for name in m.about})
    keywords = " ".join(sorted({word for m in ordered for word in m.keywords.split()}))
    medoid_claims = ordered[0].claims_json
    if isinstance(summariser, ExtractiveSummariser):
        medoid_claims = summariser.pick(ordered).claims_json
    details = details_from_json(details_json)
    props: dict[str, Any] = {
        "uid": uid, "game": game, "owner": owner, "event": None, "kind": "summary", "type": MemoryType.SEMANTIC.value,
        "text": text, "template": template, "details_json": details_json, "n_lost": n_lost(details),
        "fabricated": any_fabricated(details), "about": about, "keywords": keywords,
        "scope": scope_token(game, owner), "claims_json": medoid_claims, "embedding": embedding,
        "t_enc": latest.t_enc, "day": latest.day, "phase_name": latest.phase_name,
        "salience": max(m.salience for m in ordered), "relevance": max(m.relevance for m in ordered),
        "emotion_peak": max(m.emotion_peak for m in ordered), "emotion_json": "{}",
        "surprise": max(m.surprise for m in ordered), "consequence": max(m.consequence for m in ordered),
        "flashbulb": False, "flashbulb_score": 0.0, "floor": 0.0, "e0": e0, "s_enc": s,
        "decay_rate": strongest.decay_rate, "e_ref": e0, "t_ref": t_ref, "s": s, "n": 0, "strength": e0,
        "decayed_to": t_ref, "state": str(lifecycle_state(e0, strongest.threshold, params)),
        "threshold": strongest.threshold, "source_type": source_type, "teller": teller, "c0": c0,
        "source_k": strongest.source_k, "source_confidence": confidence,
        "source_belief": source_belief(source_type, confidence, params), "believed_teller": teller,
        "misattributed": False, "own": False, "last_recalled": None, "tombstone_reason": None, "tombstone_phase": None,
        "summary": None, "members": len(ordered), "day_first": min(m.day for m in ordered),
        "day_last": latest.day,
    }
    return PlannedSummary(uid, owner, tuple(uids), props)


def _member(row: Mapping[str, Any]) -> Member:
    def num(key: str, default: float = 0.0) -> float:
        value = row[key]
        return float(value) if value is not None else default

    return Member(
        uid=str(row["uid"]), text=str(row["text"]), template=str(row["template"]),
        details_json=str(row["details_json"]), day=int(row["day"] or 0), t_enc=int(row["t_enc"] or 0),
        phase_name=str(row["phase_name"] or ""), strength=num("strength"), s=num("s", 1.0),
        source_type=str(row["source_type"] or SourceType.INFERRED.value), teller=row["teller"],
        about=tuple(str(a) for a in row["about"]), keywords=str(row["keywords"]),
        claims_json=str(row["claims_json"]), embedding=np.asarray(row["embedding"], dtype=np.float64),
        salience=num("salience"), relevance=num("relevance"), emotion_peak=num("emotion_peak"),
        surprise=num("surprise"), consequence=num("consequence"), threshold=num("threshold"),
        decay_rate=num("decay_rate", 0.2), source_k=num("source_k", 1.0), kind=str(row["kind"]))


@dataclass
class OwnerResult:
    """One owner's consolidation: candidates read, summaries planned, members they take, summaries created."""

    owner: str
    candidates: int = 0
    summaries: int = 0
    members: int = 0
    created: int = 0
    seconds: float = 0.0


@dataclass
class ConsolidationReport:
    """What one :func:`consolidate` did (or, with ``dry_run``, would do).

    game : str; phase : int, the game's ``decayed_to``; dry_run : bool; candidates : live memories considered;
    summaries : summaries planned; members : memories they consolidate; created : Summary nodes the database
    created (0 on a re-run, and with dry_run); owners : per-owner results; planned : every planned summary
    (uid, owner, members, text, day span, e0, s, state, source); seconds : wall time;
    clustering_seconds : time inside the clustering
    """

    game: str
    phase: int
    dry_run: bool
    candidates: int = 0
    summaries: int = 0
    members: int = 0
    created: int = 0
    owners: list[OwnerResult] = field(default_factory=list)
    planned: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    clustering_seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


def _read_candidates(driver: neo4j.Driver, database: str | None, game: str, owner: str) -> list[Member]:
    return [_member(r) for r in read(driver, database, "jobs/consolidate_candidates", game=game, owner=owner)]


def _write(driver: neo4j.Driver, database: str | None, game: str, planned: Sequence[PlannedSummary]) -> int:
    rows = [{"uid": p.uid, "owner_uid": player_uid(game, p.owner),
             "props": {k: v for k, v in p.props.items() if k != "embedding"}, "embedding": p.props["embedding"],
             "members": list(p.members), "about_uids": [player_uid(game, a) for a in p.props["about"]]}
            for p in planned]

    def work(tx: neo4j.ManagedTransaction) -> int:
        summary = tx.run(cypher("jobs/consolidate_write"), summaries=rows).consume()
        return int(summary.counters.nodes_created)

    with session(driver, database) as s:
        return write_raising_versions(s, game, [p.owner for p in planned], work)[0]


def consolidate_owner(driver: neo4j.Driver, database: str | None, scope: Scope, owner: str, params: Parameters,
                      *, dry_run: bool = False, summariser: Summariser | None = None) -> tuple[OwnerResult,
                                                                                              list[PlannedSummary],
                                                                                              float]:
    """Consolidate one owner's memories (steps 1-4 of the module docstring); returns the owner's result, its
    planned summaries and the clustering time in seconds. With dry_run nothing is written."""
    started = time.perf_counter()
    members = _read_candidates(driver, database, scope.game, owner)
    cfg = params.consolidation
    clustering = time.perf_counter()
    by_key: dict[tuple[Any, ...], list[int]] = {}
    for i, m in enumerate(members):
        by_key.setdefault(consolidation_key(m), []).append(i)
    groups: list[list[int]] = []
    for indices in by_key.values():
        if len(indices) >= cfg.min_cluster_size:
            found = clusters(np.stack([members[i].embedding for i in indices]), cfg.distance_threshold,
                             cfg.min_cluster_size)
            groups.extend([indices[j] for j in group] for group in found)
    groups.sort(key=lambda group: min(group))
    clustering = time.perf_counter() - clustering
    planned = [plan_summary(scope.game, owner, [members[i] for i in group], scope.phase, scope.curve, params,
                            summariser) for group in groups]
    result = OwnerResult(owner, candidates=len(members), summaries=len(planned),
                         members=sum(len(p.members) for p in planned))
    if planned and not dry_run:
        result.created = _write(driver, database, scope.game, planned)
    result.seconds = time.perf_counter() - started
    return result, planned, clustering


def consolidate(driver: neo4j.Driver, database: str | None, game: str, params: Parameters, *,
                player: str | None = None, dry_run: bool = False, summariser: Summariser | None = None,
                progress: Progress | None = None) -> ConsolidationReport:
    """Consolidate the memories of every player of ``game`` (or only ``player``) into summaries (docs/jobs.md#consolidation).

    driver : the caller's driver; database : the database name or None for the server's default
    game : str, the game id; player : str or None, one owner only
    params : parameters (``consolidation``: distance_threshold 0.35, min_cluster_size 3, strength_boost 0.1,
        stability_factor 1.5; ``lifecycle`` and ``source`` for the summary's state and source confidence)
    dry_run : bool, plan and report but write nothing
    summariser : the text of each summary (default :class:`ExtractiveSummariser`, no network)
    progress : called with (owner, summaries) after each owner

    One write transaction per owner. Idempotent (see the module docstring).
    Returns a :class:`ConsolidationReport`.
    Raises NotFound naming an unknown game (listing the stored games) or player (listing the game's players).
    """
    started = time.perf_counter()
    scope = resolve_scope(driver, database, game, player, params)
    report = ConsolidationReport(game=game, phase=scope.phase, dry_run=dry_run)
    for owner in scope.owners:
        result, planned, clustering = consolidate_owner(driver, database, scope, owner, params, dry_run=dry_run,
                                                        summariser=summariser)
        report.owners.append(result)
        report.planned.extend(p.brief() for p in planned)
        report.candidates += result.candidates
        report.summaries += result.summaries
        report.members += result.members
        report.created += result.created
        report.clustering_seconds += clustering
        if progress:
            progress(owner, result.summaries)
    report.seconds = time.perf_counter() - started
    log.info("game %s: %d summaries of %d memories (%d created) from %d candidates of %d owners in %.2f s%s",
             game, report.summaries, report.members, report.created, report.candidates, len(scope.owners),
             report.seconds, " (dry run)" if dry_run else "")
    return report
