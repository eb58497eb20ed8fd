// Create a batch of copied nodes of one label (graphmem.store.moves): each with the properties read from the
// source. {label} is a checked identifier; the other labels of a node are added by move_add_label.
// @param rows: LIST<MAP>  {props}
// @returns written
UNWIND $rows AS row
CREATE (n:{label})
SET n = row.props
RETURN count(n) AS written
