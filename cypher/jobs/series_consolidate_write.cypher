// Write one owner's summaries across a series (docs/jobs.md#consolidation-across-a-series) in one transaction: each
// Memory:Summary node (MERGE by its uid, which derives from its sorted member uids, so re-running creates nothing;
// properties only ON CREATE), the owner's REMEMBERS edge, an ABOUT edge to the observed player of the same game,
// and SUMMARISES edges to its members (memories of earlier games: they keep their state and go on fading in their
// own games). The embedding is stored as a 32-bit float vector, like the ones ingest writes.
// @param summaries: LIST<MAP>  {uid, owner_uid, props (every Memory property but the embedding), embedding, members (member uids), about_uids}
// @returns summaries, members
UNWIND $summaries AS s
MATCH (owner:Player {uid: s.owner_uid})
MERGE (m:Memory {uid: s.uid})
ON CREATE SET m:Summary, m += s.props
MERGE (owner)-[:REMEMBERS]->(m)
WITH m, s
CALL (m, s) {
  WITH m, s WHERE m.embedding IS NULL
  CALL db.create.setNodeVectorProperty(m, 'embedding', s.embedding)
}
CALL (m, s) {
  UNWIND s.about_uids AS about_uid
  MATCH (subject:Player {uid: about_uid})
  MERGE (m)-[:ABOUT]->(subject)
}
CALL (m, s) {
  UNWIND s.members AS member_uid
  MATCH (member:Memory {uid: member_uid})
  MERGE (m)-[:SUMMARISES]->(member)
  RETURN count(member) AS members
}
RETURN count(m) AS summaries, sum(members) AS members
