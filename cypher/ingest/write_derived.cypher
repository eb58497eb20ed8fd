// Rumour chains: a listener's memory DERIVED_FROM the teller's memory it came from (docs/perception.md#rumour-chains).
// @param rows: LIST<MAP>  derived rows (memory_uid, origin_uid, similarity, via)
// @returns written
UNWIND $rows AS r
MATCH (m:Memory {uid: r.memory_uid})
MATCH (origin:Memory {uid: r.origin_uid})
MERGE (m)-[d:DERIVED_FROM]->(origin)
ON CREATE SET d.similarity = r.similarity, d.via = r.via
RETURN count(d) AS written
