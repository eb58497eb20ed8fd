// Phases of a game (HAS_PHASE) chained by NEXT, in index order.
// @param game: STRING  the game uid
// @param rows: LIST<MAP>  phase rows (uid, game, index, day, name, previous: uid of the phase before or null)
// @returns written
MATCH (g:Game {uid: $game})
UNWIND $rows AS r
MERGE (ph:Phase {uid: r.uid})
ON CREATE SET ph.game = r.game, ph.index = r.index, ph.day = r.day, ph.name = r.name
MERGE (g)-[:HAS_PHASE]->(ph)
WITH ph, r
OPTIONAL MATCH (before:Phase {uid: r.previous})
FOREACH (_ IN CASE WHEN before IS NULL THEN [] ELSE [1] END | MERGE (before)-[:NEXT]->(ph))
RETURN count(ph) AS written
