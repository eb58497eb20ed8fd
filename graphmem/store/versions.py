"""Each owner's memory version: a number that every write changing the owner's memories raises.

A process keeps each owner's recall candidates between recalls (:mod:`graphmem.recall.vectors`, "Candidates") and
reads them again only when the owner's version, the game's incarnation or its phase has moved since. The version
lives on a node of its own per player, ``(:MemoryVersion {uid: <the player's uid>, game, owner, version})``
(docs/graph-model.md), created by the first raise and deleted with the game.

Every writer of Memory nodes runs its transaction through :func:`write_raising_versions`, which raises the owners'
versions twice:

- first in the transaction, before it locks any memory: every writer takes the version locks before the memory
  locks (and before Player nodes), versions in uid order, so no two writers wait for each other in a cycle (on the
  Player node the version deadlocked with live batches, which lock Player nodes when they create edges to them);
  and a process that held candidates from before the write sees a new version even if the writer dies right after
  its commit;
- again in a transaction of its own once the write has committed: Neo4j reads at read-committed isolation, and a
  read that runs while a transaction commits can see part of it, the raised version before the index entries of
  the memories written in the same transaction (found by a helper: 20 of 100 live batches left a process holding
  one memory too few under the new version). A version that is raised only after the write is complete cannot be
  seen before it, so a process that read the candidates mid-commit reads them again.

**The change log.** A writer may also say which memories it changes (``changed``): the version node then logs their
uids with the version the writer raised it to, so that a process holding an owner's candidates at an older version
reads only those memories again instead of every index entry of the owner (``recall/context``; the ``perfect``
owner of 10,000 memories: 20-28 ms of the server's time for the whole read). Which versions the log covers is
``changes_from``: a process that read the candidates at version ``h`` may bring them up to the current version by
reading again the memories logged at versions >= ``h`` (``h`` itself included: a read during the commit of the write
that raised the version to ``h`` may have missed some of its memories) when ``h >= changes_from``; otherwise it reads
everything. A writer that does not say what it changes sets ``changes_from`` past its own version (so whatever was
read before its commit is read in full), and so does a log cut to its last :data:`LOG_SIZE` entries for the versions
cut. The second raise (``recall/raise_again``) logs nothing (its write has committed, the first raise logged what it
changed) and creates no version (a game deleted in between stays deleted). Writers that say: a writing recall (its
recalled memories) and live batches (the memories they create); the others do not, and are followed by full reads.

The writers: ingest and live batches (:mod:`graphmem.store.writer`, :mod:`graphmem.ingest.live`), a writing recall
(:mod:`graphmem.recall.reconsolidate`; through a cache made with ``background`` (a service that owns its driver), its
second raise runs on the cache's own thread after the recall has returned, and the owner's next recall in that
process waits for it: :meth:`graphmem.store.reader.MemoryReader.write`), consolidation, contradictions
and forgetting (:mod:`graphmem.jobs`), and the schema backfill (:func:`graphmem.store.schema.backfill_recall`,
after its batches). The decay job raises none: it moves ``Game.decayed_to``, which recall compares too (after its
batches, in a statement of its own).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import neo4j
from neo4j.exceptions import DriverError, Neo4jError

from graphmem.store.games import moving_parameters, refuse_if_moving, refuse_moving
from graphmem.store.idempotency import fence, fence_parameters, refuse_if_lost
from graphmem.store.keys import player_uid
from graphmem.store.queries import cypher, in_sequence

__all__ = ["LOG_SIZE", "PlannedWrite", "raise_after_commit", "raise_again", "raise_memory_versions", "run_raising_versions",
           "statement_parts", "write_raising_versions"]

log = logging.getLogger(__name__)
T = TypeVar("T")

LOG_SIZE = 256
"""Entries (memory uids) an owner's change log keeps: 25 writing recalls of 10 memories; ~15 KB on the node."""


def raise_memory_versions(tx: neo4j.ManagedTransaction, game: str | None, owners: Iterable[str] | None = None,
                          changed: Mapping[str, Collection[str]] | None = None,
                          also: Mapping[tuple[str, str], Collection[str]] | None = None) -> dict[tuple[str, str], int]:
    """Raise the memory version of ``owners`` (player names; None: every player) of ``game`` (None, with ``owners``
    None: of every game), and of the players ``also`` of other games, in the caller's transaction ``tx``
    (``recall/raise_versions``), all in uid order. Call it before the transaction changes any Memory node.
    ``changed``: {owner: uids of the memories of that owner the transaction changes or creates} for the owners whose
    changes are known (logged, see the module docstring); an owner not in it may have had any memory changed.
    ``also``: {(game, name): uids of the memories changed} of players of other games (a recall in a series writes
    the memories of the owner's earlier selves, docs/model.md#series-of-games). Returns {(game, owner): the version
    now} of every owner raised. Raises ValueError for ``owners`` without a ``game``."""
    if owners is None:
        rows = None
    else:
        if game is None:
            raise ValueError("owners are named within one game: give the game")
        rows = _owner_rows(game, owners, changed, also)
        if not rows:
            return {}
    record = tx.run(cypher("recall/raise_versions"), owners=rows, game=game, log_size=LOG_SIZE).single()
    return {} if record is None else _versions(record["versions"])


def _owner_rows(game: str, owners: Iterable[str], changed: Mapping[str, Collection[str]] | None,
                also: Mapping[tuple[str, str], Collection[str]] | None) -> list[dict[str, Any]]:
    """The ``$owners`` of ``recall/raise_versions`` (see :func:`raise_memory_versions`), sorted by uid."""
    said = changed or {}
    names = set(owners)
    rows: list[dict[str, Any]] = [{"uid": player_uid(game, owner), "game": game, "owner": owner,
                                   "changed": sorted(set(said[owner])) if owner in said else None}
                                  for owner in sorted(names)]
    rows += [{"uid": player_uid(g, owner), "game": g, "owner": owner, "changed": sorted(set(uids))}
             for (g, owner), uids in (also or {}).items() if not (g == game and owner in names)]
    rows.sort(key=lambda r: str(r["uid"]))
    return rows


def _versions(column: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], int]:
    """{(game, owner): version} of the ``versions`` column of ``recall/raise_versions`` or ``recall/raise_again``."""
    return {(str(v["game"]), str(v["owner"])): int(v["version"]) for v in column}


def raise_again(tx: neo4j.ManagedTransaction, raised: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """The second raise (``recall/raise_again``) of the players ``raised`` ((game, name) pairs) in ``tx``: each memory
    version + 1, the change log as it is. Only versions that exist are raised (none is created: a game deleted since
    the first raise stays deleted). Returns {(game, owner): the version now} of each player raised."""
    uids = sorted({player_uid(game, name) for game, name in raised})
    if not uids:
        return {}
    record = tx.run(cypher("recall/raise_again"), uids=uids).single()
    return {} if record is None else _versions(record["versions"])


def raise_after_commit(driver: neo4j.Driver, database: str | None, raised: Collection[tuple[str, str]]
                       ) -> dict[tuple[str, str], int]:
    """:func:`raise_again` in a write transaction of its own, for a writer whose transaction has committed (see the
    module docstring for why). A raise that fails is logged and gives {}: the write stands (raising would make a
    caller retry it). Returns {(game, owner): the version now}."""
    if not raised:
        return {}
    with driver.session(database=database) as session:
        return _raise_again_or_warn(session, raised)


def _raise_again_or_warn(session: neo4j.Session, raised: Collection[tuple[str, str]]) -> dict[tuple[str, str], int]:
    try:
        return session.execute_write(raise_again, raised)
    except (Neo4jError, DriverError) as e:
        log.warning("the memories of %s were written, but their versions were not raised after the commit (%s): a "
                    "process that read them during the commit may hold them stale until the next write",
                    ", ".join(f"{name} in game {game}" for game, name in sorted(raised)), e)
        return {}


def write_raising_versions(session: neo4j.Session, game: str, owners: Iterable[str],
                           work: Callable[[neo4j.ManagedTransaction], T],
                           changed: Mapping[str, Collection[str]] | None = None,
                           also: Mapping[tuple[str, str], Collection[str]] | None = None, *,
                           raise_after: bool = True
                           ) -> tuple[T, dict[tuple[str, str], int], dict[tuple[str, str], int]]:
    """Run ``work(tx)`` in one managed write transaction of ``session`` that first raises the memory versions of
    ``owners`` (player names) of ``game`` and of the players ``also`` of other games; once it has committed, raise
    them again in a transaction of its own (:func:`raise_again`; see the module docstring for why twice).
    ``changed``: {owner: uids of the memories ``work`` changes or creates} for the owners whose changes are known,
    ``also`` {(game, name): the same} (:func:`raise_memory_versions`). A request sent with an Idempotency-Key
    marks its key committed in the same transaction (:func:`graphmem.store.idempotency.fence`).
    ``raise_after=False`` leaves the second raise to the caller, who must make it once the call has returned
    (:func:`raise_after_commit`, as a writing recall does on its process's own thread:
    :meth:`graphmem.store.reader.MemoryReader.write`).

    Returns (what ``work`` returned, {(game, owner): version after the first raise}, {(game, owner): version after
    the second}; {} when the caller raises again), for ``owners`` and ``also`` alike.
    A second raise that fails is logged and gives {}: the write stands (raising would make a caller retry it).
    Errors of the write itself propagate as ``session.execute_write`` raises them.
    """
    names = sorted(set(owners))
    others = dict(also or {})

    def raising(tx: neo4j.ManagedTransaction) -> tuple[T, dict[tuple[str, str], int]]:
        refuse_if_moving(tx, game)  # a game being moved to another target takes no write (graphmem.store.moves)
        fence(tx)  # a request's write with an Idempotency-Key: the key is marked committed with it
        first = raise_memory_versions(tx, game, names, changed, others)
        return work(tx), first

    result, first = session.execute_write(raising)
    if not raise_after or (not names and not others):
        return result, first, {}
    return result, first, _raise_again_or_warn(session, [(game, name) for name in names] + list(others))


def statement_parts(query: str, *, fenced: bool) -> tuple[str, ...]:
    """The queries :func:`run_raising_versions` runs as one statement around ``query``, in order (``fenced``: a
    request's Idempotency-Key is held)."""
    return ("targets/moving", *(("idempotency/fence",) if fenced else ()), "recall/raise_versions", query)


@dataclass(frozen=True)
class PlannedWrite:
    """One write of :func:`run_raising_versions`: the parameters of its query and the memories it changes, ``changed``
    {owner of the game: uids} and ``also`` {(game, name) of a player of another game: uids}, whose memory versions are
    raised with it (:func:`raise_memory_versions` gives their meaning)."""

    parameters: Mapping[str, Any]
    changed: Mapping[str, Collection[str]] = field(default_factory=dict)
    also: Mapping[tuple[str, str], Collection[str]] = field(default_factory=dict)


def run_raising_versions(session: neo4j.Session, game: str, owners: Iterable[str], query: str,
                         planned: PlannedWrite | Callable[[neo4j.ManagedTransaction], PlannedWrite | None],
                         check: Callable[[neo4j.Record], T], *, raise_after: bool = True
                         ) -> tuple[T | None, dict[tuple[str, str], int], dict[tuple[str, str], int]]:
    """:func:`write_raising_versions` for a write that is one query (``query``, its name under ``cypher/``): the move
    fence (``targets/moving``), the Idempotency-Key's fence when a key is held (``idempotency/fence``), the first
    raise (``recall/raise_versions``, of ``owners`` of ``game`` and the players ``also``) and the query run as **one
    statement** (:func:`graphmem.store.queries.in_sequence`), in that order, in one managed write transaction;
    ``check(record)`` reads the statement's row (the query's columns among others) and may raise to roll the
    transaction back.

    planned : the write (:class:`PlannedWrite`), or what plans it first in the same transaction from what it reads
        there (a writing recall reads the rows of the memories it reconsolidates: one read transaction less,
        bench/README.md, "CPU per writing recall"); None from it: nothing to write, the statement is not run, the
        result is None and no version is raised. A transaction the driver retries plans again, so the plan must
        depend on nothing but what it reads and what it is given.

    The same writes, locks and refusals as :func:`write_raising_versions`, in one round trip: a writing recall ran them
    as three statements (bench/README.md, "CPU per writing recall"). A refusal (GameMoving, RetryConflict) comes
    after the statement has run and rolls back what it wrote. ``query`` must return one row, with columns other
    than moving_to, held and versions. Returns and raises as :func:`write_raising_versions`.
    """
    names = sorted(set(owners))
    key = fence_parameters()
    statement = in_sequence(*statement_parts(query, fenced=key is not None))
    fixed = {**moving_parameters(game), **(key or {}), "log_size": LOG_SIZE}
    raised: list[tuple[str, str]] = []

    def work(tx: neo4j.ManagedTransaction) -> tuple[T | None, dict[tuple[str, str], int]]:
        plan = planned(tx) if callable(planned) else planned
        if plan is None:
            return None, {}
        others = dict(plan.also)
        raised[:] = [(game, name) for name in names] + list(others)
        arguments = {**fixed, "owners": _owner_rows(game, names, plan.changed, others), **plan.parameters}
        record = tx.run(statement, arguments).single(strict=True)
        refuse_moving(record["moving_to"], game)
        if key is not None:
            refuse_if_lost(bool(record["held"]))
        return check(record), _versions(record["versions"])

    result, first = session.execute_write(work)
    if not raise_after or not first:  # first is {} with no owners, or no statement
        return result, first, {}
    return result, first, _raise_again_or_warn(session, raised)
