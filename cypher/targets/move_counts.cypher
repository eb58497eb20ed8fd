// The nodes of the games being moved (and of their series) by label, and their relationships by type, each
// counted once from its start node: a move compares these on the source and the destination
// (graphmem.store.moves). kind is "node" or "relationship".
// @param games: LIST<STRING>  the game uids
// @param series_uid: STRING = null  the uid of their series (null: no series)
// @returns kind, name, count
CALL () {
  UNWIND $games AS game
  CALL (game) {
    MATCH (n:Game {uid: game}) RETURN n
    UNION ALL MATCH (n:Player {game: game}) RETURN n
    UNION ALL MATCH (n:Phase {game: game}) RETURN n
    UNION ALL MATCH (n:Event {game: game}) RETURN n
    UNION ALL MATCH (n:Source {game: game}) RETURN n
    UNION ALL MATCH (n:Memory {game: game}) RETURN n
    UNION ALL MATCH (n:Conflict {game: game}) RETURN n
    UNION ALL MATCH (n:Thought {game: game}) RETURN n
    UNION ALL MATCH (n:LogBatch {game: game}) RETURN n
    UNION ALL MATCH (n:PlayerToken {game: game}) RETURN n
    UNION ALL MATCH (n:MemoryVersion {game: game}) RETURN n
    UNION ALL MATCH (n:IdempotencyKey {game: game}) RETURN n
  }
  RETURN n
  UNION ALL
  MATCH (s:Series {uid: $series_uid})
  CALL (s) { RETURN s AS n UNION MATCH (s)-[:HAS_PERSON]->(n:Person) RETURN n }
  RETURN n
}
CALL (n) {
  UNWIND labels(n) AS label
  RETURN 'node' AS kind, label AS name
  UNION ALL
  MATCH (n)-[r]->()
  RETURN 'relationship' AS kind, type(r) AS name
}
RETURN kind, name, count(*) AS count
ORDER BY kind, name
