// Put a game into a series at a position (docs/graph-model.md#series-of-games): the Series node (created with the gap
// of its clock), the game's IN_SERIES edge and `series`/`series_position` properties, and for each of its players
// the Person of the series with that name (graphmem.store.keys.person_uid) and a PLAYED_AS edge. Idempotent; the
// caller has checked that the game is in no other series and the position is free.
// @param series: STRING  the series name
// @param series_uid: STRING  the Series uid
// @param gap: INTEGER  phases between two games (parameters.series.gap), kept by a new series only
// @param game: STRING  the game uid
// @param position: INTEGER  the game's place in the series (1-based)
// @param people: LIST<MAP>  {uid (the Person uid), name, player (the Player uid)} for each player of the game
// @param now: STRING  ISO timestamp
// @returns people
MERGE (s:Series {uid: $series_uid})
ON CREATE SET s.name = $series, s.gap = $gap, s.created_at = $now
WITH s
MATCH (g:Game {uid: $game})
MERGE (g)-[r:IN_SERIES]->(s)
SET r.position = $position, g.series = $series, g.series_position = $position
WITH s, g
UNWIND $people AS row
MATCH (p:Player {uid: row.player})
MERGE (person:Person {uid: row.uid})
ON CREATE SET person.series = $series, person.name = row.name
MERGE (s)-[:HAS_PERSON]->(person)
MERGE (person)-[a:PLAYED_AS]->(p)
SET a.position = $position, a.game = g.uid
RETURN count(person) AS people
