// Where a game (or a series a game is about to join) is being moved (graphmem.store.moves.refuse_if_moving): run
// first in every write transaction of a game; the write is refused when the game or its series is leaving this
// database. Always one row (moving_to null: not moving, or not stored).
// @param game: STRING = null  the game uid
// @param series_uid: STRING = null  the uid of a series the game joins
// @returns moving_to
OPTIONAL MATCH (g:Game {uid: $game})
OPTIONAL MATCH (g)-[:IN_SERIES]->(in_series:Series)
OPTIONAL MATCH (s:Series {uid: $series_uid})
RETURN coalesce(g.moving_to, in_series.moving_to, s.moving_to) AS moving_to
LIMIT 1
