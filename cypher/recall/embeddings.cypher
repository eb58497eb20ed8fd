// What recall keeps of each memory between calls (graphmem.recall.vectors): the embedding of its text and the
// players it is about (both never change once written), the access count n, and its source cue (graphmem.recall.vectors.SourceCue): the speaker the owner believes it came from (the believed teller,
// which a misattribution changes with n; the owner for the owner's own statements and actions) and what its source
// confidence is computed from at any phase (c0, source_k, t_enc, s_enc; own, flashbulb and misattributed keep the
// source: graphmem.model.source.keeps_source); its text, keywords and context, which the lexical lane indexes
// (graphmem.recall.lexical: a reconsolidation rewrites text and keywords with n); and for a statement where it was
// said (graphmem.recall.neighbours: the phase, the channel, for a private one the people in it, and its line in the
// log), which never changes either; null for every other memory; and the time its event was logged at (the event's
// `t`, ISO 8601, null when the log gives none: graphmem.recall.dates), which never changes either.
// @param uids: LIST<STRING>  memory uids
// @returns uid, embedding, about, n, speaker, c0, source_k, t_enc, s_enc, own, flashbulb, misattributed, text, keywords, context, said, t
// CYPHER replan=skip: its plan is kept while the statistics change (graphmem.store.queries, "Query plans")
CYPHER replan=skip
UNWIND $uids AS uid
MATCH (m:Memory {uid: uid})
OPTIONAL MATCH (m)-[:OF_EVENT]->(e:Event {kind: 'say'}) WHERE m.kind = 'say'
RETURN m.uid AS uid, m.embedding AS embedding, m.about AS about, coalesce(m.n, 0) AS n,
       CASE WHEN coalesce(m.own, false) THEN m.owner ELSE m.believed_teller END AS speaker,
       m.c0 AS c0, m.source_k AS source_k, m.t_enc AS t_enc, m.s_enc AS s_enc, coalesce(m.own, false) AS own,
       coalesce(m.flashbulb, false) AS flashbulb, coalesce(m.misattributed, false) AS misattributed,
       m.text AS text, m.keywords AS keywords, m.context AS context,
       CASE WHEN e IS NULL THEN null
            ELSE {phase: e.phase, line: e.line, channel: e.channel, witnesses: e.witnesses} END AS said,
       head([(m)-[:OF_EVENT]->(x:Event) WHERE x.t IS NOT NULL | x.t]) AS t
