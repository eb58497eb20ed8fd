// The stored event lines of a live game, batch by batch in order (to rebuild its state in a process that does
// not hold it).
// @param game: STRING  the game uid
// @returns start, lines
MATCH (b:LogBatch {game: $game})
RETURN b.start AS start, b.lines AS lines
ORDER BY b.start
