// Ground-truth events with IN_PHASE, BY, TARGETS and WITNESSED_BY edges.
// @param rows: LIST<MAP>  event rows (graph properties plus phase_uid, actor_uid, target_uids, witness_uids)
// @returns written
UNWIND $rows AS r
MERGE (e:Event {uid: r.uid})
ON CREATE SET e += r {.game, .id, .kind, .phase, .day, .line, .text, .channel, .ballot, .actor, .targets,
                      .witnesses, .details_json, .claims_json, .role_revealed, .t, .secret,
                      .choice, .result, .belief, .annotations_json}
WITH e, r
MATCH (ph:Phase {uid: r.phase_uid})
MERGE (e)-[:IN_PHASE]->(ph)
WITH e, r
CALL (e, r) {
  OPTIONAL MATCH (actor:Player {uid: r.actor_uid})
  FOREACH (_ IN CASE WHEN actor IS NULL THEN [] ELSE [1] END | MERGE (e)-[:BY]->(actor))
}
CALL (e, r) {
  UNWIND r.target_uids AS target_uid
  MATCH (target:Player {uid: target_uid})
  MERGE (e)-[:TARGETS]->(target)
}
CALL (e, r) {
  UNWIND r.witness_uids AS witness_uid
  MATCH (witness:Player {uid: witness_uid})
  MERGE (e)-[:WITNESSED_BY]->(witness)
}
RETURN count(e) AS written
