// Record the phase a game was decayed to (the last step of the decay job).
// @param game: STRING  the game id
// @param to: INTEGER  the phase the game's memories and thoughts now describe
// @returns decayed_to
MATCH (g:Game {uid: $game})
SET g.decayed_to = $to
RETURN g.decayed_to AS decayed_to
