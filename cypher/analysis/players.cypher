// The players of a game: final role (after any recruitment), memory profile, fate (alive, murdered, banished) with
// the day and phase of their elimination, their RetrievalThreshold and how many memories they hold.
// @param game: STRING  the game id
// @returns player, role, profile, status, eliminated_day, eliminated_phase, threshold, memories
MATCH (p:Player {game: $game})
USING INDEX p:Player(game)
RETURN p.name AS player, p.role AS role, p.profile AS profile, p.status AS status,
       p.eliminated_day AS eliminated_day, p.eliminated_phase AS eliminated_phase, p.threshold AS threshold,
       COUNT { (p)-[:REMEMBERS]->() } AS memories
ORDER BY player
