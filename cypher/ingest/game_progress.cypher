// How far a stored game is: whether its ingest completed and the phase it was decayed to (no row: not stored).
// @param game: STRING  the game uid
// @returns complete, decayed_to, last_phase
MATCH (g:Game {uid: $game})
RETURN g.complete AS complete, g.decayed_to AS decayed_to, g.last_phase AS last_phase
