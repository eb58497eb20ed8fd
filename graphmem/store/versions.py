"""Each owner's memory version: a number that every write changing the owner's memories raises.

A process keeps each owner's recall candidates between recalls (:mod:`graphmem.recall.vectors`, "Candidates") and
reads them again only when the owner's version, the game's incarnation or its phase has moved since. The version
lives on a node of its own per player, ``(:MemoryVersion {uid: <the player's uid>, game, owner, version})``
(docs/graph-model.md), created by the first raise and deleted with the game.

Every writer of Memory nodes calls :func:`raise_memory_versions` FIRST in its transaction, before it locks any
memory: the raise commits with the write or not at all, and since every writer takes the version locks before the
memory locks, and versions in uid order, no two writers wait for each other in a cycle. (On the Player node the
version deadlocked with live batches, which lock Player nodes when they create edges to them.) The writers:
ingest and live batches (:mod:`graphmem.store.writer`), a writing recall (:mod:`graphmem.recall.reconsolidate`),
consolidation, contradictions and forgetting (:mod:`graphmem.jobs`), and the schema backfill
(:func:`graphmem.store.schema.backfill_recall`, after its batches). The decay job raises none: it moves
``Game.decayed_to``, which recall compares too.
"""

from __future__ import annotations

from collections.abc import Iterable

import neo4j

from graphmem.store.keys import player_uid
from graphmem.store.queries import cypher

__all__ = ["raise_memory_versions"]


def raise_memory_versions(tx: neo4j.ManagedTransaction, game: str | None,
                          owners: Iterable[str] | None = None) -> dict[str, int]:
    """Raise the memory version of ``owners`` (player names; None: every player) of ``game`` (None, with ``owners``
    None: of every game) in the caller's transaction ``tx`` (``recall/raise_versions``). Call it before the
    transaction changes any Memory node. Returns {owner: the version now} (with ``game`` None, owners of several
    games share names: only the count is meaningful). Raises ValueError for ``owners`` without a ``game``."""
    if owners is None:
        rows = None
    else:
        if game is None:
            raise ValueError("owners are named within one game: give the game")
        rows = [{"uid": player_uid(game, owner), "game": game, "owner": owner} for owner in sorted(set(owners))]
        if not rows:
            return {}
    record = tx.run(cypher("recall/raise_versions"), owners=rows, game=game).single()
    return {} if record is None else {str(v["owner"]): int(v["version"]) for v in record["versions"]}
