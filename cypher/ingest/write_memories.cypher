// Memories with their Source (provenance) and the REMEMBERS, OF_EVENT, FROM, VIA, GIVEN_BY and ABOUT edges.
// Memory properties are set only when the memory is created: re-ingesting never resets decay or recall state.
// `context` is the statement a statement followed in its conversation (null otherwise: not stored).
// `scope` (the owner's full-text token, graphmem.ingest.records.scope_token) derives from the game and owner alone.
// The embedding is stored as a 32-bit float vector (db.create.setNodeVectorProperty), half the size of a list of
// doubles.
// @param rows: LIST<MAP>  memory rows (graph properties plus embedding, owner_uid, event_uid, source_uid, teller_uid, about_uids)
// @returns written
UNWIND $rows AS r
MATCH (owner:Player {uid: r.owner_uid})
MATCH (e:Event {uid: r.event_uid})
MERGE (m:Memory {uid: r.uid})
ON CREATE SET m += r {.game, .owner, .event, .kind, .type, .text, .template, .details_json, .n_lost, .fabricated,
                      .about, .keywords, .scope, .claims_json, .t_enc, .day, .phase_name, .salience, .relevance,
                      .emotion_peak, .emotion_json, .surprise, .consequence, .flashbulb, .flashbulb_score, .floor,
                      .e0, .s_enc, .decay_rate, .e_ref, .t_ref, .s, .n, .strength, .decayed_to, .state, .threshold,
                      .source_type, .teller, .c0, .source_k, .source_confidence, .source_belief, .believed_teller,
                      .misattributed, .own, .context}
MERGE (owner)-[:REMEMBERS]->(m)
MERGE (m)-[:OF_EVENT]->(e)
MERGE (src:Source {uid: r.source_uid})
ON CREATE SET src.game = r.game, src.type = r.source_type, src.channel = r.channel, src.phase = r.t_enc,
              src.day = r.day, src.confidence = r.c0
MERGE (m)-[:FROM]->(src)
MERGE (src)-[:VIA]->(e)
WITH m, src, r
CALL (m, r) {
  WITH m, r WHERE m.embedding IS NULL
  CALL db.create.setNodeVectorProperty(m, 'embedding', r.embedding)
}
CALL (src, r) {
  OPTIONAL MATCH (teller:Player {uid: r.teller_uid})
  FOREACH (_ IN CASE WHEN teller IS NULL THEN [] ELSE [1] END | MERGE (src)-[:GIVEN_BY]->(teller))
}
CALL (m, r) {
  UNWIND r.about_uids AS about_uid
  MATCH (subject:Player {uid: about_uid})
  MERGE (m)-[:ABOUT]->(subject)
}
RETURN count(m) AS written
