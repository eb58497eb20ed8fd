// The relationships leaving a batch of nodes (given by uid) of one label, with their types, properties and end
// nodes, as a move copies them (graphmem.store.moves). {label} is a checked identifier.
// @param uids: LIST<STRING>  the start nodes' uids
// @returns start, type, props, end, end_labels
UNWIND $uids AS uid
MATCH (n:{label} {uid: uid})-[r]->(m)
RETURN n.uid AS start, type(r) AS type, properties(r) AS props, m.uid AS end, labels(m) AS end_labels
