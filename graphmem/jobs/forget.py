"""Forgetting on request: ``graphmem forget`` tombstones one memory of one owner (docs/model.md#lifecycle-states).

A tombstoned memory is never recalled, clustered or compared again, but it is kept, with the reason and the
phase, for audit and analysis: nothing is ever deleted except by purging a whole game.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from typing import Any

import neo4j

from graphmem.errors import NotFound
from graphmem.jobs.scope import read, resolve_scope, session
from graphmem.model.clarity import lifecycle_state
from graphmem.model.forgetting import strength_at
from graphmem.model.params import Parameters
from graphmem.store.keys import AUTOMATIC_TRIGGERS, automatic_thought_id, thought_uid
from graphmem.store.queries import cypher
from graphmem.store.versions import write_raising_versions

__all__ = ["DEFAULT_REASON", "ForgetResult", "forget"]

log = logging.getLogger(__name__)

DEFAULT_REASON = "forgotten on request"


@dataclass(frozen=True)
class ForgetResult:
    """uid : the memory; text : its text; reason, phase : the tombstone's reason and phase; changed : False when
    it was already tombstoned (then reason and phase are the first tombstone's); thoughts_dropped : working-memory
    items pushed from this memory at ingest (flashbulb, accusation) that were dropped with it; summary_dissolved :
    the uid of the summary it had been consolidated into, tombstoned with it (its other members are recalled
    one by one again), or None."""

    uid: str
    text: str
    reason: str
    phase: int
    changed: bool
    thoughts_dropped: int = 0
    summary_dissolved: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


def _restored(row: neo4j.Record, phase: int, curve: str, params: Parameters) -> dict[str, Any]:
    """A consolidated member's strength at ``phase`` (closed form, docs/model.md#forgetting) and its lifecycle state
    (docs/model.md#lifecycle-states)."""
    strength = strength_at(float(row["e_ref"]), float(row["t_ref"]), float(row["s"]), phase, curve,
                           float(row["floor"]))
    return {"uid": row["uid"], "strength": strength,
            "state": str(lifecycle_state(strength, float(row["threshold"]), params))}


def forget(driver: neo4j.Driver, database: str | None, game: str, player: str, memory: str,
           params: Parameters, reason: str | None = None) -> ForgetResult:
    """Tombstone memory ``memory`` of ``player`` in ``game``: state "tombstoned", ``tombstone_reason`` (default
    "forgotten on request") and ``tombstone_phase`` = the game's ``decayed_to``. Idempotent: a memory already
    tombstoned is left as it is. The working-memory items that ingest pushed from this memory (a flashbulb or an
    accusation kept in mind) are dropped in the same transaction, so a forgotten memory is not an active thought;
    and a summary the memory was consolidated into, whose text carries its gist, is tombstoned too, its other
    members returning to the lifecycle state of their current strength (docs/model.md#lifecycle-states).

    Raises NotFound naming an unknown game (listing the stored games) or player (listing the game's players), or
    a memory uid that does not exist or is not one of that player's memories in that game.
    """
    scope = resolve_scope(driver, database, game, player, params)
    records = read(driver, database, "jobs/forget_memory", uid=memory)
    if not records:
        raise NotFound(f"no memory '{memory}' is stored (memory uids look like "
                       f"'{game}/memory/{player}/EVENT'; `graphmem recall` and `graphmem query` show them)")
    row = records[0]
    if row["game"] != game or row["owner"] != player:
        raise NotFound(f"memory '{memory}' is not a memory of player '{player}' in game '{game}' "
                       f"(it belongs to '{row['owner']}' in game '{row['game']}')")
    pushed = [] if row["event"] is None or row["kind"] == "lesson" else \
        [thought_uid(game, player, automatic_thought_id(row["event"], trigger)) for trigger in AUTOMATIC_TRIGGERS]

    summary = row["summary"] if row["state"] == "consolidated" else None

    def work(tx: neo4j.ManagedTransaction) -> tuple[neo4j.Record | None, int]:
        done = tx.run(cypher("jobs/forget_tombstone"), uid=memory, game=game, owner=player,
                      reason=reason or DEFAULT_REASON, phase=scope.phase).single()
        dropped = tx.run(cypher("jobs/forget_thoughts"), uids=pushed, phase=scope.phase).single(strict=True)["dropped"]
        if summary is not None:
            members = [_restored(r, scope.phase, scope.curve, params)
                       for r in tx.run(cypher("jobs/forget_summary_members"), summary=summary, uid=memory)]
            tx.run(cypher("jobs/forget_dissolve_summary"), summary=summary, phase=scope.phase, members=members,
                   reason=f"a memory it consolidated was forgotten on request: {memory}").consume()
        return done, int(dropped)

    with session(driver, database) as s:
        (done, dropped), _, _ = write_raising_versions(s, game, [player], work)
    if done is None:  # it was there a moment ago: only a purge of the whole game removes memories
        raise NotFound(f"memory '{memory}' disappeared while it was being forgotten (was game '{game}' purged?)")
    result = ForgetResult(str(done["uid"]), str(row["text"]), str(done["tombstone_reason"]),
                          int(done["tombstone_phase"]), bool(done["changed"]), dropped, summary)
    log.info("game %s: %s %s (%s, phase %d)", game, "tombstoned" if result.changed else "already tombstoned",
             memory, result.reason, result.phase)
    return result
