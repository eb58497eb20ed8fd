// What a live game's batch needs to know of the stored game before it is validated: whether it is live, ended,
// how many events it holds and their log hash, its header as stored, and how far it is decayed.
// No row when the game is not stored.
// @param game: STRING  the game uid
// @returns live, complete, log_events, log_sha256, header_json, decayed_to, last_phase
MATCH (g:Game {uid: $game})
RETURN coalesce(g.live, false) AS live, coalesce(g.complete, false) AS complete, coalesce(g.log_events, 0) AS log_events,
       g.log_sha256 AS log_sha256, g.header_json AS header_json, coalesce(g.decayed_to, 0) AS decayed_to,
       coalesce(g.last_phase, 0) AS last_phase
