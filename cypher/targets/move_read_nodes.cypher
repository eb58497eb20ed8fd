// One batch of the nodes of one label of a game, in uid order after $after, with every label and property, as a
// move copies them (graphmem.store.moves). {label} is a checked identifier.
// @param game: STRING  the game uid
// @param after: STRING  the last uid of the previous batch ("" for the first)
// @param limit: INTEGER  the batch size
// @returns uid, labels, props
MATCH (n:{label} {game: $game})
WHERE n.uid > $after
WITH n ORDER BY n.uid LIMIT $limit
RETURN n.uid AS uid, labels(n) AS labels, properties(n) AS props
