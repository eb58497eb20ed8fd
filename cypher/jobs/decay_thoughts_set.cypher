// Write the working-memory state computed by the decay job (docs/model.md#working-memory): whether each thought is held (unexpired and
// within capacity) and how many phases it has left.
// @param rows: LIST<MAP>  one {uid, active, persistence_left} per thought of the game
// @returns thoughts
UNWIND $rows AS r
MATCH (t:Thought {uid: r.uid})
SET t.active = r.active,
    t.persistence_left = r.persistence_left
RETURN count(t) AS thoughts
