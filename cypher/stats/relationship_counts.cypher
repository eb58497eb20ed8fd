// Number of relationships of one game by type, each counted once from its start node (every relationship of a
// game starts at a node of that game).
// @param game: STRING  the game id
// @returns type, count
CALL () {
  MATCH (n:Game {uid: $game}) RETURN n
  UNION ALL MATCH (n:Player {game: $game}) RETURN n
  UNION ALL MATCH (n:Phase {game: $game}) RETURN n
  UNION ALL MATCH (n:Event {game: $game}) RETURN n
  UNION ALL MATCH (n:Source {game: $game}) RETURN n
  UNION ALL MATCH (n:Memory {game: $game}) RETURN n
  UNION ALL MATCH (n:Conflict {game: $game}) RETURN n
  UNION ALL MATCH (n:Thought {game: $game}) RETURN n
}
MATCH (n)-[r]->()
RETURN type(r) AS type, count(r) AS count
ORDER BY type
