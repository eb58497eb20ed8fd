// Whether a game, and a series of games, are stored in this database (graphmem.targets: where a game lives is
// the target that holds its Game node, and a series lives with its games). A copy being moved here (`arriving_from`
// set: graphmem.store.moves) is not the game's place yet; a game being moved away names its destination
// (`moving_to`): once the destination holds it as its place, the destination wins.
// @param game: STRING  the game uid
// @param series_uid: STRING = null  a series uid (graphmem.store.keys.series_uid; null: none asked)
// @returns game_here, series_here, game_moving_to, series_moving_to
OPTIONAL MATCH (g:Game {uid: $game}) WHERE g.arriving_from IS NULL
OPTIONAL MATCH (s:Series {uid: $series_uid}) WHERE s.arriving_from IS NULL
RETURN g IS NOT NULL AS game_here, s IS NOT NULL AS series_here, g.moving_to AS game_moving_to,
       s.moving_to AS series_moving_to
