// Store the canonical lines of one accepted batch of a live game (in the transaction that claims the batch and
// writes its rows), so that any process can rebuild the game's state by replaying them (docs/service.md).
// Idempotent: a batch sent again finds its node.
// @param uid: STRING  the batch's uid (graphmem.store.keys.log_batch_uid)
// @param game: STRING  the game uid
// @param start: INTEGER  the 0-based index of the batch's first event in the game
// @param lines: LIST<STRING>  the canonical JSON line of each event (graphmem.logs.writer.event_line)
// @returns created
MERGE (b:LogBatch {uid: $uid})
ON CREATE SET b.game = $game, b.start = $start, b.count = size($lines), b.lines = $lines, b.created = true
WITH b, coalesce(b.created, false) AS created
REMOVE b.created
RETURN created
