// This database's name and the server's clock now, for a move's drain (graphmem.store.moves.drain): it waits for
// every transaction of this database that began before then.
// @returns name, now
CALL db.info() YIELD name
RETURN name, toString(datetime()) AS now
