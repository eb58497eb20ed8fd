// Whether a game, and a series of games, are stored in this database (graphmem.targets: where a game lives is
// the target that holds its Game node, and a series lives with its games). A copy being moved here (marked
// $arriving: graphmem.store.moves) is not the game's place yet; a game being moved away names its destination
// (marked $moving): once the destination holds it as its place, the destination wins. The marks are read by key: a
// database that never saw a move has no such property key, and a key named in the text would make Neo4j warn.
// @param game: STRING  the game uid
// @param series_uid: STRING = null  a series uid (graphmem.store.keys.series_uid; null: none asked)
// @param moving: STRING  "moving_to" (graphmem.store.games.MOVING_TO)
// @param arriving: STRING  "arriving_from" (graphmem.store.games.ARRIVING_FROM)
// @returns game_here, series_here, game_moving_to, series_moving_to
OPTIONAL MATCH (g:Game {uid: $game}) WHERE g[$arriving] IS NULL
OPTIONAL MATCH (s:Series {uid: $series_uid}) WHERE s[$arriving] IS NULL
RETURN g IS NOT NULL AS game_here, s IS NOT NULL AS series_here, g[$moving] AS game_moving_to,
       s[$moving] AS series_moving_to
