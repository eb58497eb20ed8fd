// Write one owner's detected conflicts (docs/jobs.md#contradictions): each Conflict node MERGEd by its uid (which derives from its two
// memories' uids) with its properties set only ON CREATE, so a re-run neither duplicates nor reopens a conflict,
// and (Conflict)-[:BETWEEN {side}]->(Memory) to both memories (side "a": the earlier, "b": the later).
// @param conflicts: LIST<MAP>  {uid, a, b, props (every Conflict property)}
// @returns conflicts
UNWIND $conflicts AS c
MATCH (a:Memory {uid: c.a})
MATCH (b:Memory {uid: c.b})
MERGE (k:Conflict {uid: c.uid})
ON CREATE SET k += c.props
MERGE (k)-[ea:BETWEEN]->(a)
ON CREATE SET ea.side = 'a'
MERGE (k)-[eb:BETWEEN]->(b)
ON CREATE SET eb.side = 'b'
RETURN count(k) AS conflicts
