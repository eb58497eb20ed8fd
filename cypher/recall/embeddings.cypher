// What recall keeps of each memory between calls (graphmem.recall.vectors): the embedding of its text and the
// players it is about (both never change once written), and its keywords (names, place and day, the context its
// context embedding is made of) with the access count n they belong to (a reconsolidation rewrites both).
// @param uids: LIST<STRING>  memory uids
// @returns uid, embedding, about, keywords, n
UNWIND $uids AS uid
MATCH (m:Memory {uid: uid})
RETURN m.uid AS uid, m.embedding AS embedding, m.about AS about, coalesce(m.keywords, '') AS keywords,
       coalesce(m.n, 0) AS n
