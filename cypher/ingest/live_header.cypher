// Replace a live game's header (set_roles: roles announced after the game was created, before or after its first
// events). Run after ingest/live_lock in the same transaction; changes nothing when another batch or change came
// in between (the stored event count and log hash are not the ones the caller read).
// @param game: STRING  the game uid
// @param header_json: STRING  the new canonical header
// @param header_sha256: STRING  the log hash of the new header alone
// @param log_sha256: STRING  the log hash of the new header and the stored events (header_sha256 with no event)
// @param before_events: INTEGER  the event count the caller read
// @param before_sha256: STRING  the log hash the caller read
// @returns changed, log_events
MATCH (g:Game {uid: $game})
WITH g, coalesce(g.log_events, 0) = $before_events AND g.log_sha256 = $before_sha256 AS changed
FOREACH (_ IN CASE WHEN changed THEN [1] ELSE [] END |
  SET g.header_json = $header_json, g.header_sha256 = $header_sha256, g.log_sha256 = $log_sha256)
RETURN changed, coalesce(g.log_events, 0) AS log_events
