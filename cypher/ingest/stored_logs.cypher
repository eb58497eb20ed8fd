// Which of these games are stored already, with the hash of the log each was ingested from and its number of
// events (null for a live game fed through MemoryService, and for games stored before hashes were kept), and how
// far the game is (complete, decayed_to).
// @param games: LIST<STRING>  game uids
// @returns game, log_sha256, log_events, live, complete, decayed_to
MATCH (g:Game) WHERE g.uid IN $games
RETURN g.uid AS game, g.log_sha256 AS log_sha256, g.log_events AS log_events, coalesce(g.live, false) AS live,
       coalesce(g.complete, false) AS complete, g.decayed_to AS decayed_to
