// Raise the memory version of owners whose memories the caller's transaction changes (docs/graph-model.md,
// graphmem.store.versions): one MemoryVersion node per player (uid = the player's uid), created by the first raise.
// A process that holds an owner's recall candidates reads them again once the version differs from the one it read
// them at (graphmem.recall.vectors, "Candidates"). Run it first in the writer's transaction, before any Memory is
// locked, owners in uid order: every writer then locks versions before memories, and in one order, so two writers
// never wait for each other in a cycle (a version on the Player node itself deadlocked with live batches, which lock
// Player nodes when they create ABOUT and WITNESSED_BY edges; nothing but these raises locks a MemoryVersion).
// @param owners: LIST<MAP> = null  {uid (the player's uid), game, owner (the name)}, sorted by uid (null: every player of $game)
// @param game: STRING = null  with $owners null: the game id (null: every game)
// @returns versions
CALL () {
  WITH 1 AS one WHERE $owners IS NULL
  MATCH (p:Player) WHERE $game IS NULL OR p.game = $game
  WITH p ORDER BY p.uid
  RETURN collect({uid: p.uid, game: p.game, owner: p.name}) AS every
}
UNWIND coalesce($owners, every) AS o
MERGE (v:MemoryVersion {uid: o.uid})
ON CREATE SET v.game = o.game, v.owner = o.owner
SET v.version = coalesce(v.version, 0) + 1
RETURN collect({game: v.game, owner: v.owner, version: v.version}) AS versions
