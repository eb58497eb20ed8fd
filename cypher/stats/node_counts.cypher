// Number of nodes of one game by label (a node with two labels, such as Memory:Summary, counts under each).
// Each label is read through its `game` index, never by scanning the whole database.
// @param game: STRING  the game id
// @returns label, count
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
UNWIND labels(n) AS label
RETURN label, count(*) AS count
ORDER BY label
