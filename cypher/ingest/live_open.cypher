// Create a live game's Game node with its header (the canonical header as JSON, and the hash of the header alone),
// or find the stored one: run first in the transaction that writes the new game's players and phase 0. MERGE takes
// the node's lock, so of two processes that create the same game at once, the second finds the first's node.
// A new game gets a random `incarnation`, as an ingested one does (ingest/write_game): recall keeps embeddings
// between calls by incarnation (graphmem.recall.vectors); without it, a live game was read whole every time.
// @param row: MAP  the game row (uid, game, title, format, imported_from, curve, last_phase, winner, traitor_roles)
// @param header_json: STRING  the canonical header (graphmem.logs.writer.to_json_object), compact JSON
// @param header_sha256: STRING  the log hash of the header alone (graphmem.logs.writer.LogDigest)
// @param nonce: STRING  a random value of this call (tells the creator from a process that found the node)
// @param now: STRING  ISO timestamp
// @returns created, live, complete, log_events, header_sha256
MERGE (g:Game {uid: $row.uid})
ON CREATE SET g += $row, g.live = true, g.complete = false, g.log_events = 0, g.log_sha256 = $header_sha256,
              g.header_json = $header_json, g.header_sha256 = $header_sha256, g.decayed_to = 0,
              g.ingested_at = $now, g.opened_by = $nonce, g.incarnation = randomUUID()
RETURN coalesce(g.opened_by = $nonce, false) AS created, coalesce(g.live, false) AS live,
       coalesce(g.complete, false) AS complete, coalesce(g.log_events, 0) AS log_events,
       g.header_sha256 AS header_sha256
