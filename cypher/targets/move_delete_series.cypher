// Delete a series' own nodes (the Series and its Person nodes, with their relationships) from this database: the
// last step of a series' move on its source, or a partial copy on a destination (graphmem.store.moves). Person
// nodes are found by their series' name as well, so a copy interrupted before its HAS_PERSON edges goes too.
// @param series_uid: STRING  the series uid
// @param series: STRING  the series name
// @returns deleted
CALL () {
  MATCH (n:Series {uid: $series_uid}) RETURN n
  UNION
  MATCH (n:Person {series: $series}) RETURN n
}
DETACH DELETE n
RETURN count(*) AS deleted
