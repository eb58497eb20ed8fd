// What recall/embeddings reads of a memory but the embedding, `about` and `context`, which never change once written:
// a writing recall changes the access count, the source cue, the text and the keywords, so a process that holds the
// memory sets these on the row it keeps (graphmem.recall.vectors.EmbeddingCache.recued) instead of reading the
// embedding again. The one home of that map in recall/context and recall/earlier_context.
// @param memory: NODE  the Memory
// @returns recued
{uid: $memory.uid, n: coalesce($memory.n, 0),
 speaker: CASE WHEN coalesce($memory.own, false) THEN $memory.owner ELSE $memory.believed_teller END,
 c0: $memory.c0, source_k: $memory.source_k, t_enc: $memory.t_enc, s_enc: $memory.s_enc, own: coalesce($memory.own, false),
 flashbulb: coalesce($memory.flashbulb, false), misattributed: coalesce($memory.misattributed, false),
 text: $memory.text, keywords: $memory.keywords}
