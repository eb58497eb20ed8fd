// What this database holds of games being moved (graphmem.store.moves): per game whether its Game node is here,
// and its move marks; and the same of their series.
// @param games: LIST<STRING>  the game uids
// @param series_uid: STRING = null  the uid of their series (null: no series)
// @returns game, here, moving_to, arriving_from, series_here, series_moving_to, series_arriving_from
OPTIONAL MATCH (s:Series {uid: $series_uid})
WITH s
UNWIND $games AS game
OPTIONAL MATCH (g:Game {uid: game})
RETURN game, g IS NOT NULL AS here, g.moving_to AS moving_to, g.arriving_from AS arriving_from,
       s IS NOT NULL AS series_here, s.moving_to AS series_moving_to, s.arriving_from AS series_arriving_from
