"""The contradiction job: find the memories of each owner that contradict each other, store them as Conflict
nodes, and settle identity conflicts once the owner knows the truth (docs/jobs.md#contradictions).

``graphmem contradictions`` calls :func:`find_contradictions`. For each owner (one player, or every player):

1. read the owner's live memories (active, warm, archived; summaries included), the role reveals the owner
   holds, and the conflicts already stored for the owner;
2. detect conflicts (:mod:`graphmem.claims.conflicts`: claims on functional predicates, and similar texts that
   disagree) and decide each one's kind and status;
3. settle the open identity conflicts (new or stored) that a witnessed reveal decides, and pick the losing
   memories;
4. write everything in one transaction: Conflict nodes MERGEd by uid with ``BETWEEN`` edges to both memories
   (``cypher/jobs/contradictions_write.cypher``), then the resolutions, which only change conflicts still open,
   and the tombstones of the losers (``cypher/jobs/contradictions_resolve.cypher``).

Idempotent: a second run creates nothing and changes nothing; a resolved or dismissed conflict is never reopened.
A run killed half-way leaves whole owners done or untouched, and the next run completes it.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import neo4j
import numpy as np

from graphmem.claims.conflict_model import norm
from graphmem.claims.conflicts import (
    IDENTITY,
    OPEN,
    ROLE,
    ConflictPlan,
    Known,
    OwnerMemory,
    Sides,
    Truth,
    detect,
    resolve,
    role_universe,
)
from graphmem.jobs.scope import Scope, read, resolve_scope, session
from graphmem.model.params import Parameters
from graphmem.store.keys import player_uid
from graphmem.store.queries import cypher
from graphmem.store.versions import write_raising_versions
from graphmem.store.writer import Progress

__all__ = ["ContradictionReport", "OwnerConflicts", "Resolution", "find_contradictions", "plan_owner"]

log = logging.getLogger(__name__)



@dataclass
class OwnerConflicts:
    """One owner's result: conflicts detected, created (new nodes), resolved now, memories tombstoned now."""

    owner: str
    memories: int = 0
    detected: int = 0
    created: int = 0
    resolved: int = 0
    tombstoned: int = 0


@dataclass
class ContradictionReport:
    """What one :func:`find_contradictions` did (or, with ``dry_run``, would do).

    game : str; phase : int, the game's ``decayed_to``; dry_run : bool
    detected : conflicts found now (stored or not); new : those not stored before (created, or to be created);
    created : Conflict nodes the database created (0 on a re-run and with dry_run)
    by_kind : {kind: detected}; by_status : {kind: {status: n}}, the detected conflicts by kind and by their status
    after this run (open, resolved, dismissed); open : detected conflicts left open after resolution
    resolved : open conflicts settled by a known truth now; tombstoned : memories tombstoned now (with dry_run: that
    would be) owners : per-owner results; conflicts : the new and the newly resolved conflicts (uid, owner, kind,
    status, resolution, subject, predicate, a, b, reason, losers); seconds : wall time
    """

    game: str
    phase: int
    dry_run: bool
    detected: int = 0
    new: int = 0
    created: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    by_status: dict[str, dict[str, int]] = field(default_factory=dict)
    open: int = 0
    resolved: int = 0
    tombstoned: int = 0
    owners: list[OwnerConflicts] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


def _read(driver: neo4j.Driver, database: str | None, name: str, **params: Any) -> list[neo4j.Record]:
    return read(driver, database, f"jobs/{name}", **params)


def _memory(row: Mapping[str, Any]) -> OwnerMemory:
    embedding = row["embedding"]
    return OwnerMemory(uid=str(row["uid"]), event=row["event"], phase=int(row["phase"] or 0), text=str(row["text"]),
                       claims=OwnerMemory.parse_claims(row["claims_json"]),
                       about=tuple(str(a) for a in row["about"]),
                       embedding=np.asarray(embedding, dtype=np.float64) if embedding is not None else None,
                       kind=str(row["kind"] or ""), speaker=row["speaker"], source=row["source"], day=row["day"],
                       line=int(row["line"] or 0), ballot=row["ballot"])


@dataclass(frozen=True)
class Resolution:
    """How a known truth settles one open identity conflict: its uid, the resolution (keep_a, keep_b, correct),
    the phase, the reason and the memories to tombstone."""

    uid: str
    resolution: str
    phase: int
    reason: str
    losers: tuple[str, ...]

    def row(self) -> dict[str, Any]:
        """The parameter map of ``cypher/jobs/contradictions_resolve.cypher``."""
        return {"uid": self.uid, "resolution": self.resolution, "phase": self.phase, "reason": self.reason,
                "losers": list(self.losers)}


def plan_owner(scope: Scope, owner: str, memories: Sequence[OwnerMemory], truths: Sequence[Truth],
               known: Sequence[Known], params: Parameters) -> tuple[list[ConflictPlan], list[Resolution]]:
    """The conflicts of one owner and the resolutions the truth decides (pure; steps 2-3 of the module docstring).

    Returns (detected conflicts as detected, i.e. identity ones open; resolutions of open identity conflicts,
    new or stored, that a held reveal settles).
    """
    sides = Sides.of(scope.side_names, scope.traitor_roles)
    claimed_roles = [c[2] for m in memories for c in m.claims if c[1] == ROLE]
    # A side reveal ("evil") names no role: the universe is the roles, and the sides group them.
    game_roles = {norm(r) for r in scope.roles}
    named = [*scope.roles, *claimed_roles, *(t.role for t in truths)]
    roles = role_universe([r for r in named if norm(r) in game_roles or norm(r) not in sides.names])
    plans = detect(scope.game, owner, memories, roles, frozenset(scope.players), params.similarity.contradiction,
                   traitor_roles=scope.traitor_roles, eliminated=scope.eliminated,
                   allies=frozenset(scope.traitors) - {owner} if owner in scope.traitors else frozenset(),
                   sides=sides, truths=truths, hidden=owner in scope.traitors)
    by_uid = {m.uid: m for m in memories}
    stored = {k.uid: k for k in known}
    candidates: list[ConflictPlan | Known] = [p for p in plans if p.status == OPEN and p.uid not in stored]
    candidates += [k for k in known if k.status == OPEN and k.kind == IDENTITY]
    resolutions = []
    for candidate in candidates:
        settled = resolve(candidate, by_uid, truths, roles, sides)
        if settled is not None:
            resolutions.append(Resolution(candidate.uid, *settled))
    return plans, resolutions


def _write(driver: neo4j.Driver, database: str | None, game: str, owner: str, plans: Sequence[ConflictPlan],
           resolutions: Sequence[Resolution]) -> tuple[int, int, int]:
    conflicts = [{"uid": p.uid, "a": p.a, "b": p.b, "props": p.props(game, owner)} for p in plans]
    rows = [r.row() for r in resolutions]

    def work(tx: neo4j.ManagedTransaction) -> tuple[int, int, int]:
        created = tx.run(cypher("jobs/contradictions_write"), conflicts=conflicts).consume().counters.nodes_created
        record = tx.run(cypher("jobs/contradictions_resolve"), resolutions=rows).single()
        resolved = int(record["resolved"]) if record else 0
        tombstoned = int(record["tombstoned"] or 0) if record else 0
        return created, resolved, tombstoned

    with session(driver, database) as s:
        # tombstones change the owner's candidates: raise the owner's memory version (conflicts alone do not)
        return write_raising_versions(s, game, [owner] if rows else [], work)[0]


def find_contradictions(driver: neo4j.Driver, database: str | None, game: str, params: Parameters, *,
                        player: str | None = None, dry_run: bool = False,
                        progress: Progress | None = None) -> ContradictionReport:
    """Detect, store and (when the owner knows the truth) resolve the contradictions of ``game``
    (docs/jobs.md#contradictions).

    driver : the caller's driver; database : the database name or None for the server's default
    game : str, the game id; player : str or None, one owner only
    params : parameters (``similarity.contradiction``: the cosine from which similar texts are compared, 0.75)
    dry_run : bool, detect and report but write nothing
    progress : called with (owner, conflicts detected) after each owner

    One write transaction per owner. Idempotent (see the module docstring).
    Returns a :class:`ContradictionReport`.
    Raises NotFound naming an unknown game (listing the stored games) or player (listing the game's players).
    """
    started = time.perf_counter()
    scope = resolve_scope(driver, database, game, player, params)
    report = ContradictionReport(game=game, phase=scope.phase, dry_run=dry_run)
    kinds: Counter[str] = Counter()
    statuses: Counter[tuple[str, str]] = Counter()
    player_uids = {name: player_uid(game, name) for name in scope.players}
    for owner in scope.owners:
        memories = [_memory(r) for r in _read(driver, database, "contradictions_memories", game=game, owner=owner)]
        truths = [Truth(str(r["subject"]), str(r["role"]), int(r["phase"]), bool(r["final"]), str(r["memory"]))
                  for r in _read(driver, database, "contradictions_truths", game=game, owner=owner,
                                 player_uids=player_uids)]
        known = [Known(str(r["uid"]), str(r["kind"]), str(r["status"]), r["subject"], r["predicate"], str(r["a"]),
                       str(r["b"])) for r in _read(driver, database, "contradictions_known", game=game, owner=owner)]
        plans, resolutions = plan_owner(scope, owner, memories, truths, known, params)
        stored = {k.uid: k.status for k in known}
        result = OwnerConflicts(owner, memories=len(memories), detected=len(plans))
        settled = {r.uid: r for r in resolutions}
        if dry_run:
            result.resolved = len(resolutions)
            result.tombstoned = len({loser for r in resolutions for loser in r.losers})
        elif plans or resolutions:
            result.created, result.resolved, result.tombstoned = _write(driver, database, game, owner, plans,
                                                                        resolutions)
        kinds.update(p.kind for p in plans)
        statuses.update((p.kind, "resolved" if p.uid in settled else stored.get(p.uid, p.status)) for p in plans)
        report.open += sum(1 for p in plans if p.uid not in settled and stored.get(p.uid, p.status) == OPEN)
        new = [p for p in plans if p.uid not in stored]
        report.new += len(new)
        for p in new + [p for p in plans if p.uid in stored and p.uid in settled]:
            entry = {**p.props(game, owner), "losers": []}
            if p.uid in settled:
                r = settled[p.uid]
                entry.update(status="resolved", resolution=r.resolution, resolved_phase=r.phase,
                             reason=f"{p.reason}; resolved: {r.reason}", losers=list(r.losers))
            report.conflicts.append(entry)
        for uid in settled.keys() - {p.uid for p in plans}:
            r = settled[uid]
            report.conflicts.append({"uid": uid, "owner": owner, "status": "resolved", "resolution": r.resolution,
                                     "resolved_phase": r.phase, "reason": r.reason, "losers": list(r.losers)})
        report.owners.append(result)
        report.detected += result.detected
        report.created += result.created
        report.resolved += result.resolved
        report.tombstoned += result.tombstoned
        if progress:
            progress(owner, result.detected)
    report.by_kind = dict(sorted(kinds.items()))
    for (kind, status), n in sorted(statuses.items()):
        report.by_status.setdefault(kind, {})[status] = n
    report.seconds = time.perf_counter() - started
    log.info("game %s: %d conflicts detected (%d new, %d created, %d open), %d resolved, %d memories tombstoned "
             "in %.2f s%s", game, report.detected, report.new, report.created, report.open, report.resolved,
             report.tombstoned, report.seconds, " (dry run)" if dry_run else "")
    return report
