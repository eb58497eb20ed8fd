// The nodes of a series that belong to no game (the Series and its Person nodes), with every label and property,
// as a move copies them (graphmem.store.moves).
// @param series_uid: STRING  the series uid
// @returns uid, labels, props
MATCH (s:Series {uid: $series_uid})
CALL (s) {
  RETURN s AS n
  UNION
  MATCH (s)-[:HAS_PERSON]->(n:Person) RETURN n
}
RETURN n.uid AS uid, labels(n) AS labels, properties(n) AS props
