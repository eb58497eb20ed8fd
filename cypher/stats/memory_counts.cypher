// Memories of one game by provenance source type and by lifecycle state.
// @param game: STRING  the game id
// @returns dimension, value, count
MATCH (m:Memory {game: $game})
WITH m
UNWIND [['source', m.source_type], ['state', m.state], ['type', m.type], ['source_belief', m.source_belief]] AS pair
RETURN pair[0] AS dimension, pair[1] AS value, count(*) AS count
ORDER BY dimension, value
