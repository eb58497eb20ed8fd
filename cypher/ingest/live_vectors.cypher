// The embeddings of some memories of a live game (rumour chains compare a statement with its speaker's earlier
// memories; a process that rebuilt the game reads them instead of embedding the texts again).
// @param owners: LIST<STRING>  the owners whose memories are wanted
// @param game: STRING  the game uid
// @returns uid, embedding
MATCH (m:Memory {game: $game})
WHERE m.owner IN $owners AND NOT m:Summary
RETURN m.uid AS uid, m.embedding AS embedding
