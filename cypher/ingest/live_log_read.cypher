// The stored event lines of a live game from event $start on, batch by batch in order (to rebuild its state, or to
// bring a cached state up to date, in a process that did not write those batches).
// @param game: STRING  the game uid
// @param start: INTEGER = 0  the first event wanted (0-based; the start of a stored batch)
// @returns start, lines
MATCH (b:LogBatch {game: $game})
WHERE b.start >= $start
RETURN b.start AS start, b.lines AS lines
ORDER BY b.start
