// The series a stored game belongs to and its position there (no row: the game is in no series or not stored).
// @param game: STRING  the game uid
// @returns series, position
MATCH (:Game {uid: $game})-[r:IN_SERIES]->(s:Series)
RETURN s.name AS series, r.position AS position
