// The uid of each memory node id the recall's context query returned (cypher/recall/context.cypher), run in the same
// read transaction, for the ids the caller has not met yet (graphmem.recall.vectors.EmbeddingCache.uids): a node id
// names a node only while the node exists, so it is resolved where it was read.
// @param ids: LIST<INTEGER>  node ids of Memory nodes (id())
// @returns id, uid
// CYPHER replan=skip: its plan is kept while the statistics change (graphmem.store.queries, "Query plans")
CYPHER replan=skip
UNWIND $ids AS id
MATCH (m:Memory) WHERE id(m) = id
RETURN id, m.uid AS uid
