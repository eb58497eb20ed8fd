// Every working-memory item (Thought) of a game with its player's capacity (docs/model.md#working-memory), for the decay job; not those
// dropped because the memory they came from was forgotten on request (graphmem forget).
// capacity is null when the player has no wm_capacity (the Player that THINKS it; ingest and push_thought create the edge).
// @param game: STRING  the game id
// @returns uid, player, content, priority, persistence, pushed_phase, seq, trigger, capacity
MATCH (t:Thought {game: $game}) WHERE t.forgotten IS NULL
OPTIONAL MATCH (p:Player)-[:THINKS]->(t)
RETURN t.uid AS uid, t.player AS player, t.content AS content, t.priority AS priority,
       t.persistence AS persistence, t.pushed_phase AS pushed_phase, t.seq AS seq, t.trigger AS trigger,
       p.wm_capacity AS capacity
ORDER BY uid
