// The scope of a per-owner job on one game (shared by consolidate, contradictions and forget): the game's phase
// and forgetting curve, its players in name order and their roles. No row when the game is not stored.
// @param game: STRING  the game id
// @returns decayed_to, last_phase, curve, players, roles
MATCH (g:Game {uid: $game})
OPTIONAL MATCH (g)-[:HAS_PLAYER]->(p:Player)
WITH g, p ORDER BY p.name
RETURN g.decayed_to AS decayed_to, g.last_phase AS last_phase, g.curve AS curve,
       [name IN collect(p.name) WHERE name IS NOT NULL] AS players,
       [role IN collect(DISTINCT p.role) WHERE role IS NOT NULL] AS roles
