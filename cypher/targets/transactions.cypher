// The transactions running on this server, every database's (a user who is not an admin sees only its own), for a
// move's drain (graphmem.store.moves.drain).
// @returns database, transactionId, startTime, currentQuery
SHOW TRANSACTIONS YIELD database, transactionId, startTime, currentQuery
RETURN database, transactionId, startTime, currentQuery
