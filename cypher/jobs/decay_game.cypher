// The state of one game that the decay job needs: the phase it was last decayed to, its forgetting curve, its last
// phase, and whether it is stored at all (no row when it is not).
// @param game: STRING  the game id
// @returns decayed_to, curve, last_phase
MATCH (g:Game {uid: $game})
RETURN g.decayed_to AS decayed_to, g.curve AS curve, g.last_phase AS last_phase
