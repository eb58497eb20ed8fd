// Mark games (and their series) as leaving this database for target $to (graphmem.store.moves: every write of a
// marked game is refused from now on), or clear the mark ($to null: a move given up). Returns the games marked.
// @param games: LIST<STRING>  the game uids
// @param series_uid: STRING = null  the uid of their series (null: no series)
// @param to: STRING = null  the destination target's name (null: clear the mark)
// @returns marked
OPTIONAL MATCH (s:Series {uid: $series_uid})
SET s.moving_to = $to
WITH DISTINCT 1 AS one
UNWIND $games AS game
MATCH (g:Game {uid: game})
SET g.moving_to = $to
RETURN count(g) AS marked
