// Working-memory items (Thought nodes) with their THINKS edges.
// @param rows: LIST<MAP>  thought rows (graph properties plus player_uid)
// @returns written
UNWIND $rows AS r
MATCH (p:Player {uid: r.player_uid})
MERGE (th:Thought {uid: r.uid})
ON CREATE SET th += r {.game, .player, .content, .priority, .persistence, .pushed_phase, .expires_phase, .seq,
                       .trigger, .active, .persistence_left}
MERGE (p)-[:THINKS]->(th)
RETURN count(th) AS written
