// A recalled memory's row: every property reconsolidation and the prompt need (docs/model.md#reconsolidation,
// docs/prompt.md); who was there with the owner at the event of a flashbulb (its sensory details,
// docs/model.md#flashbulb-memories: the other witnesses but a murder's victim, whom a log may make a witness of their
// own murder, docs/perception.md, and whom the others found dead); and whether it is the owner's own statement or
// action (docs/model.md#source-memory: it keeps its source): the stored `own`, or for a memory stored before `own`
// existed, its kind is one of own_kinds and its event's actor is the owner. The one home of the row recall/memories
// reads and recall/context and recall/earlier_context read again after a write
// (tests/integration/test_recall_candidates.py holds them equal).
// @param memory: NODE  the Memory
// @param player: STRING  the owner's name (left out of the witnesses, ignoring case: in a series the owner's player of
//   an earlier game may spell it otherwise, docs/model.md#series-of-games)
// @param own_kinds: LIST<STRING>  the event kinds of the owner's own statements and actions (graphmem.model.source.OWN_KINDS)
// @returns memory
$memory {.uid, .event, .kind, .text, .template, .details_json, .about, .t_enc, .day, .phase_name, .flashbulb,
         .floor, .e0, .s_enc, .e_ref, .t_ref, .s, .n, .salience, .type, .c0, .source_k, .source_type, .teller,
         .believed_teller, .misattributed, .threshold, .state, .emotion_json, summary: $memory:Summary,
         own: CASE WHEN $memory.own IS NOT NULL THEN $memory.own
                   ELSE $memory.kind IN $own_kinds AND EXISTS { ($memory)-[:OF_EVENT]->(e:Event) WHERE e.actor = $player } END,
         witnesses: CASE WHEN $memory.flashbulb THEN [($memory)-[:OF_EVENT]->(e:Event)-[:WITNESSED_BY]->(w:Player)
                                                      WHERE toLower(w.name) <> toLower($player)
                                                        AND NOT (e.kind = 'murder' AND (e)-[:TARGETS]->(w)) | w.name]
                         ELSE [] END}
