// Add a second label to copied nodes (a Memory that is also a Summary; graphmem.store.moves). {label} and {extra}
// are checked identifiers.
// @param uids: LIST<STRING>  the nodes' uids
// @returns labelled
UNWIND $uids AS uid
MATCH (n:{label} {uid: uid})
SET n:{extra}
RETURN count(n) AS labelled
