// The conflicts already stored for one owner, with their two memories (a: the earlier, b: the later).
// @param game: STRING  the game id
// @param owner: STRING  the owner's player name
// @returns uid, kind, status, subject, predicate, a, b
MATCH (c:Conflict {game: $game})
WHERE c.owner = $owner
RETURN c.uid AS uid, c.kind AS kind, c.status AS status, c.subject AS subject, c.predicate AS predicate,
       c.memory_a AS a, c.memory_b AS b
ORDER BY uid
