// The players of a game: final role (after any recruitment), whether that role is on the traitor side (one of
// Game.traitor_roles; ["traitor"] for a game stored without it), memory profile, fate (alive, murdered, banished)
// with the day and phase of their elimination, their RetrievalThreshold and how many memories they hold.
// @param game: STRING  the game id
// @returns player, role, traitor_side, profile, status, eliminated_day, eliminated_phase, threshold, memories
OPTIONAL MATCH (g:Game {uid: $game})
WITH coalesce(g.traitor_roles, ['traitor']) AS traitor_roles
MATCH (p:Player {game: $game})
USING INDEX p:Player(game)
RETURN p.name AS player, p.role AS role, p.role IN traitor_roles AS traitor_side, p.profile AS profile,
       p.status AS status, p.eliminated_day AS eliminated_day, p.eliminated_phase AS eliminated_phase,
       p.threshold AS threshold, COUNT { (p)-[:REMEMBERS]->() } AS memories
ORDER BY player
