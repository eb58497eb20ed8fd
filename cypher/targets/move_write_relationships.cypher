// Create a batch of copied relationships of one type between nodes already copied (graphmem.store.moves), each
// with its properties. {start}, {type} and {end} are checked identifiers (the start and end nodes' uid labels).
// @param rows: LIST<MAP>  {start, end, props}: the start and end nodes' uids and the relationship's properties
// @returns written
UNWIND $rows AS row
MATCH (a:{start} {uid: row.start})
MATCH (b:{end} {uid: row.end})
CREATE (a)-[r:{type}]->(b)
SET r = row.props
RETURN count(r) AS written
