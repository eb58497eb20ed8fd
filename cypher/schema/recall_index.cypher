// The composite range index recall reads its candidates from (cypher/recall/context.cypher): an owner's memories by
// strength (a range seek skips the memories no cue can bring back), state and encoding phase, with every value the ranking needs before the embeddings (t_ref, e_ref, s, floor,
// threshold, flashbulb), the access count n (which says when a reconsolidation may have changed the memory's
// keywords, graphmem.recall.vectors) and the uid, so that the candidates are read from the index alone, never from
// the store.
// A memory lacking one of these properties would not be in the index: ingest and consolidation write all of them,
// and graphmem init backfills a database written before the index existed (schema/recall_backfill).
// @returns nothing
CREATE RANGE INDEX memory_recall IF NOT EXISTS
FOR (m:Memory) ON (m.game, m.owner, m.strength, m.state, m.t_enc, m.t_ref, m.e_ref, m.s, m.floor, m.threshold,
                   m.flashbulb, m.n, m.uid)
