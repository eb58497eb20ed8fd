// The embeddings and `about` lists of the given memories, for the recall's dense scores (SPEC 6 step 1), read once
// per memory and kept in the process (graphmem.recall.vectors): both never change once written.
// @param uids: LIST<STRING>  memory uids
// @returns uid, embedding, about
UNWIND $uids AS uid
MATCH (m:Memory {uid: uid})
RETURN m.uid AS uid, m.embedding AS embedding, m.about AS about
