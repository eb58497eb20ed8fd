// Backfill `scope` (graphmem.ingest.records.scope_token) on the memories of each (game, owner) that lack it,
// batched with CALL IN TRANSACTIONS: run it through session.run (an implicit, auto-commit transaction).
// @param scopes: LIST<MAP>  {game, owner, scope} for each owner to backfill
// @param batch: INTEGER  memories per transaction
// @returns memories
UNWIND $scopes AS s
MATCH (m:Memory {game: s.game, owner: s.owner})
WHERE m.scope IS NULL
CALL (m, s) {
  SET m.scope = s.scope
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS memories
