// Claim the next events of a live game for the calling process (optimistic concurrency; run after ingest/live_lock in
// the same transaction). The claim holds when the game is live and its stored event count and log hash are those the
// process had before this batch, or already those after it (a batch whose write failed, sent again), or when the game
// was stored before live games kept a hash; then they become the values after the batch. Otherwise nothing changes
// and the caller refuses the batch before writing any of it (another process added events, or the header or
// history differ from what is stored).
// @param game: STRING  the game uid
// @param before_events: INTEGER  events this process knew before the batch
// @param before_sha256: STRING  the log hash of those events (graphmem.logs.writer.LogDigest)
// @param after_events: INTEGER  events after the batch
// @param after_sha256: STRING  the log hash after the batch
// @returns claimed, live, log_events, log_sha256
MATCH (g:Game {uid: $game})
WITH g, g.log_events AS stored_events, g.log_sha256 AS stored_sha, coalesce(g.live, false) AS live
WITH g, stored_events, stored_sha, live,
     live AND (stored_sha IS NULL
               OR (stored_events = $before_events AND stored_sha = $before_sha256)
               OR (stored_events = $after_events AND stored_sha = $after_sha256)) AS claimed
FOREACH (_ IN CASE WHEN claimed THEN [1] ELSE [] END |
  SET g.log_events = $after_events, g.log_sha256 = $after_sha256)
RETURN claimed, live, stored_events AS log_events, stored_sha AS log_sha256
