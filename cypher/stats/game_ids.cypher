// The ids of every stored game, sorted (for listings and the message of an unknown game id).
// @returns game
MATCH (g:Game)
RETURN g.uid AS game
ORDER BY game
