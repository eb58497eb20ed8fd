// Raise Player.memory_version of every player of a game ($game), or of every player stored ($game null), after a
// write that changed their memories outside one owner's statement (the schema backfill's batches):
// what a process keeps of their candidates is stale from then on (graphmem.recall.vectors, "Candidates").
// @param game: STRING = null  the game id (null: every game)
// @returns players
MATCH (p:Player)
WHERE $game IS NULL OR p.uid STARTS WITH $game + '/player/'
SET p.memory_version = coalesce(p.memory_version, 0) + 1
RETURN count(p) AS players
