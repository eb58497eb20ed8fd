// Create the Game node, or bring its progress up to date (a live game grows, a log can be ingested again once the
// game went on; a second ingest of the same log sets the same values, so it changes nothing). A new Game node gets
// a random `incarnation`: a game deleted and stored again under the same id is another incarnation (recall keeps
// embeddings between calls by incarnation, graphmem.recall.vectors).
// @param row: MAP  the game row (uid, game, title, format, imported_from, curve, last_phase, winner, traitor_roles,
//   side_names (the names of the hidden side and of the others),
//   log_sha256, log_events, live)
// @param now: STRING  ISO timestamp of this ingest
// @returns created
MERGE (g:Game {uid: $row.uid})
ON CREATE SET g += $row, g.ingested_at = $now, g.decayed_to = 0, g.complete = false, g.incarnation = randomUUID()
ON MATCH SET g.last_phase = CASE WHEN $row.last_phase > g.last_phase THEN $row.last_phase ELSE g.last_phase END,
             g.winner = coalesce($row.winner, g.winner),
             g.log_sha256 = CASE WHEN g.log_events IS NULL OR $row.log_events > g.log_events
                                 THEN $row.log_sha256 ELSE g.log_sha256 END,
             g.log_events = CASE WHEN g.log_events IS NULL OR $row.log_events > g.log_events
                                 THEN $row.log_events ELSE g.log_events END
RETURN g.ingested_at = $now AS created
