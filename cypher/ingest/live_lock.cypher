// Lock a live game's Game node until the end of the transaction (a write takes the node's write lock), so that
// ingest/live_claim, run next in the same transaction, reads the event count and hash last committed by any process.
// No row when the game is not stored.
// @param game: STRING  the game uid
// @param now: STRING  ISO timestamp of the claim
// @returns locked
MATCH (g:Game {uid: $game})
SET g.live_claimed_at = $now
RETURN true AS locked
