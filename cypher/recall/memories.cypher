// The recalled memories in full (docs/model.md#reconsolidation, docs/prompt.md): every property reconsolidation and the prompt need, for the
// few memories the ranking kept (graphmem.recall.ranking.top_k); the other players who witnessed the event of a
// flashbulb (its sensory details, docs/model.md#flashbulb-memories); and whether it is the owner's own statement or action (docs/model.md#source-memory: it
// keeps its source): the stored `own`, or for a memory stored before `own` existed, its kind is one of $own_kinds
// and its event's actor is the owner. Rows come in the order of $uids.
// @param uids: LIST<STRING>  the recalled memories' uids
// @param player: STRING  the owner's name (left out of the witnesses, ignoring case: in a series the owner's player of an
//   earlier game may spell it otherwise, docs/model.md#series-of-games)
// @param own_kinds: LIST<STRING>  the event kinds of the owner's own statements and actions (graphmem.model.source.OWN_KINDS)
// @returns memory
// CYPHER replan=skip: its plan is kept while the statistics change (graphmem.store.queries, "Query plans")
CYPHER replan=skip
UNWIND range(0, size($uids) - 1) AS i
MATCH (m:Memory {uid: $uids[i]})
WITH i, m ORDER BY i
RETURN @memory_row(m, $player, $own_kinds) AS memory
