// The last step of a move on its destination (graphmem.store.moves): the copied games (and their series) become
// their place here, in one transaction; from now on every process that locates them finds them here.
// @param games: LIST<STRING>  the game uids
// @param series_uid: STRING = null  the uid of their series (null: no series)
// @returns arrived
OPTIONAL MATCH (s:Series {uid: $series_uid})
REMOVE s.arriving_from
WITH DISTINCT 1 AS one
UNWIND $games AS game
MATCH (g:Game {uid: game})
REMOVE g.arriving_from
RETURN count(g) AS arrived
