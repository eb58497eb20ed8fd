// Replace a live game's header while it holds no event (set_roles: roles announced after the game was created).
// Run after ingest/live_lock in the same transaction; changes nothing once an event is stored.
// @param game: STRING  the game uid
// @param header_json: STRING  the new canonical header
// @param header_sha256: STRING  its log hash (the game's hash with no event)
// @param before_sha256: STRING  the hash the caller read (another change in between refuses this one)
// @returns changed, log_events
MATCH (g:Game {uid: $game})
WITH g, coalesce(g.log_events, 0) = 0 AND g.log_sha256 = $before_sha256 AS changed
FOREACH (_ IN CASE WHEN changed THEN [1] ELSE [] END |
  SET g.header_json = $header_json, g.header_sha256 = $header_sha256, g.log_sha256 = $header_sha256)
RETURN changed, coalesce(g.log_events, 0) AS log_events
