// Players of a game with their HAS_PLAYER edges. Role (recruitment), status, elimination and emotion state are
// the player's current ones, so they are set on every write; for a finished log they never change.
// @param game: STRING  the game uid
// @param rows: LIST<MAP>  player rows (uid, game, name, role, profile, status, eliminated_phase, eliminated_day, wm_capacity, threshold, emotion_json)
// @returns written
MATCH (g:Game {uid: $game})
UNWIND $rows AS r
MERGE (p:Player {uid: r.uid})
ON CREATE SET p += r
SET p.role = r.role, p.status = r.status, p.eliminated_phase = r.eliminated_phase,
    p.eliminated_day = r.eliminated_day, p.emotion_json = r.emotion_json
MERGE (g)-[:HAS_PLAYER]->(p)
RETURN count(p) AS written
