// Whether a game, and a series of games, are stored in this database (graphmem.targets: where a game lives is
// the target that holds its Game node, and a series lives with its games).
// @param game: STRING  the game uid
// @param series_uid: STRING = null  a series uid (graphmem.store.keys.series_uid; null: none asked)
// @returns game_here, series_here
RETURN EXISTS { MATCH (:Game {uid: $game}) } AS game_here,
       $series_uid IS NOT NULL AND EXISTS { MATCH (:Series {uid: $series_uid}) } AS series_here
