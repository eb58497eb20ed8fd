// Mark a game's ingest as complete (set last, after every batch was written).
// @param game: STRING  the game uid
// @returns complete
MATCH (g:Game {uid: $game})
SET g.complete = true
RETURN g.complete AS complete
