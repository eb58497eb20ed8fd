// Delete every node of one label that belongs to a game, with its relationships, in transactions of 10,000 nodes
// (a player of a large game has ~100k relationships: one transaction would exhaust a small heap). Run it for each
// label of the graph model; {label} is a checked identifier. Must run in an implicit (auto-commit) transaction.
// @param game: STRING  the game uid
// @returns deleted
MATCH (n:{label} {game: $game})
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS
RETURN count(*) AS deleted
