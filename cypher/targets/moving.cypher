// Where a game (or a series a game is about to join) is being moved (graphmem.store.games.refuse_if_moving): run
// first in every write transaction of a game; the write is refused when the game or its series is leaving this
// database. Always one row (moving_to null: not moving, or not stored). The marks are read by key ($moving,
// $series_key): a database that never saw a move has no such property key, and a key named in the text would make
// Neo4j send a warning with every write.
// @param game: STRING = null  the game uid
// @param series_uid: STRING = null  the uid of a series the game joins
// @param moving: STRING  the property of the mark: "moving_to" (graphmem.store.games.MOVING_TO)
// @param series_key: STRING  the Game property naming its series: "series"
// @returns moving_to
OPTIONAL MATCH (g:Game {uid: $game})
WITH g, [name IN [g[$series_key]] WHERE name IS NOT NULL] AS names
OPTIONAL MATCH (s:Series) WHERE s.uid = $series_uid OR s.name IN names
WITH g, collect(s[$moving]) AS series_marks
RETURN coalesce(g[$moving], head(series_marks)) AS moving_to
