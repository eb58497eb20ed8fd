// Raise the memory version of owners whose memories the caller's transaction changes (docs/graph-model.md,
// graphmem.store.versions): one MemoryVersion node per player (uid = the player's uid), created by the first raise.
// A process that holds an owner's recall candidates reads them again once the version differs from the one it read
// them at (graphmem.recall.vectors, "Candidates"). Run it first in the writer's transaction, before any Memory is
// locked, owners in uid order: every writer then locks versions before memories, and in one order, so two writers
// never wait for each other in a cycle (a version on the Player node itself deadlocked with live batches, which lock
// Player nodes when they create ABOUT and WITNESSED_BY edges; nothing but these raises locks a MemoryVersion).
// The change log: a writer that says which memories it changes (`changed`, a list of uids) has them logged with the
// version it raised to (`changed_uids` and `changed_at`, parallel lists, the last $log_size entries), so that a
// process holding the candidates at an older version reads only those memories again; `changes_from` is the lowest
// version from which the log names every change (a process that read at a version below it reads everything). A
// writer that does not say (`changed` null) moves `changes_from` past its own version and empties the log; a log cut
// to $log_size moves it past the versions cut.
// @param owners: LIST<MAP> = null  {uid (the player's uid), game, owner (the name), changed (LIST<STRING> of memory uids, or null: not said)}, sorted by uid (null: every player of $game, changes not said)
// @param game: STRING = null  with $owners null: the game id (null: every game)
// @param log_size: INTEGER  the most entries the change log keeps (graphmem.store.versions.LOG_SIZE)
// @returns versions
// CYPHER replan=skip: its plan is kept while the statistics change (graphmem.store.queries, "Query plans")
CYPHER replan=skip
CALL () {
  WITH 1 AS one WHERE $owners IS NULL
  MATCH (p:Player) WHERE $game IS NULL OR p.game = $game
  WITH p ORDER BY p.uid
  RETURN collect({uid: p.uid, game: p.game, owner: p.name}) AS every
}
UNWIND coalesce($owners, every) AS o
// an existing version is write-locked before MERGE reads it: MERGE takes a shared lock on the node it matches and the
// SET below upgrades it, so two writers of one owner each holding the shared lock deadlocked (22 of 200 transactions
// in 4 threads raising one owner); holding the exclusive lock first, the other writer waits instead
OPTIONAL MATCH (locked:MemoryVersion {uid: o.uid})
SET locked.raise_lock = true
REMOVE locked.raise_lock
WITH o
MERGE (v:MemoryVersion {uid: o.uid})
ON CREATE SET v.game = o.game, v.owner = o.owner
SET v.version = coalesce(v.version, 0) + 1
WITH v, o,
     CASE WHEN o.changed IS NULL OR size(o.changed) > $log_size THEN null
          ELSE coalesce(v.changed_uids, []) + o.changed END AS uids,
     CASE WHEN o.changed IS NULL OR size(o.changed) > $log_size THEN null
          ELSE coalesce(v.changed_at, []) + [u IN o.changed | v.version] END AS at
// entries cut from the front: the versions they belong to are no longer fully named
WITH v, uids, at, CASE WHEN uids IS NULL THEN 0 ELSE size(uids) - $log_size END AS cut
SET v.changes_from = CASE WHEN uids IS NULL THEN v.version + 1
                          WHEN cut > 0 AND at[cut - 1] + 1 > coalesce(v.changes_from, v.version)
                            THEN at[cut - 1] + 1
                          ELSE coalesce(v.changes_from, v.version) END,
    v.changed_uids = CASE WHEN uids IS NULL THEN [] WHEN cut > 0 THEN uids[cut..] ELSE uids END,
    v.changed_at = CASE WHEN at IS NULL THEN [] WHEN cut > 0 THEN at[cut..] ELSE at END
RETURN collect({game: v.game, owner: v.owner, version: v.version}) AS versions
