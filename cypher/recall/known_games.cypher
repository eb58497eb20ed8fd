// The stored game ids, for the message of an unknown game.
// @returns game
MATCH (g:Game)
RETURN g.uid AS game
ORDER BY game
