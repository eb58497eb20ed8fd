// A game's phase and players, to check a request for one player's conflicts (MemoryService.conflicts).
// No row when the game is not stored.
// @param game: STRING  the game id
// @returns decayed_to, players
MATCH (g:Game {uid: $game})
OPTIONAL MATCH (g)-[:HAS_PLAYER]->(p:Player)
WITH g, p ORDER BY p.name
RETURN g.decayed_to AS decayed_to, collect(p.name) AS players
