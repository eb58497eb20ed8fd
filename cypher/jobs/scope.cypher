// The scope of a per-owner job on one game (shared by consolidate, contradictions and forget): the game's phase
// and forgetting curve, its players in name order and their roles, the traitor-side roles and the players who hold
// one at the end, and the players who left the game with the phase they left in. No row when the game is not
// stored.
// @param game: STRING  the game id
// @returns decayed_to, last_phase, curve, players, roles, traitor_roles, traitors, eliminated
MATCH (g:Game {uid: $game})
OPTIONAL MATCH (g)-[:HAS_PLAYER]->(p:Player)
WITH g, p ORDER BY p.name
RETURN g.decayed_to AS decayed_to, g.last_phase AS last_phase, g.curve AS curve,
       [name IN collect(p.name) WHERE name IS NOT NULL] AS players,
       [role IN collect(DISTINCT p.role) WHERE role IS NOT NULL] AS roles,
       coalesce(g.traitor_roles, ['traitor']) AS traitor_roles,
       [x IN collect(CASE WHEN p.role IN coalesce(g.traitor_roles, ['traitor']) THEN p.name END)
        WHERE x IS NOT NULL] AS traitors,
       [x IN collect(CASE WHEN p.eliminated_phase IS NOT NULL THEN [p.name, p.eliminated_phase] END)
        WHERE x IS NOT NULL] AS eliminated
