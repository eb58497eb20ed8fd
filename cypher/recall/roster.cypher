// A game's phase and players, to check a request for one player's conflicts (MemoryService.conflicts).
// No row when the game is not stored.
// @param game: STRING  the game id
// @returns decayed_to, players
// CYPHER replan=skip: its plan is kept while the statistics change (graphmem.store.queries, "Query plans")
CYPHER replan=skip
MATCH (g:Game {uid: $game})
OPTIONAL MATCH (g)-[:HAS_PLAYER]->(p:Player)
WITH g, p ORDER BY p.name
RETURN g.decayed_to AS decayed_to, collect(p.name) AS players
