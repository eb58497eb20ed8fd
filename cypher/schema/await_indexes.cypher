// Wait until every index is ONLINE (fails after the timeout).
// @param seconds: INTEGER  how long to wait
// @returns nothing
CALL db.awaitIndexes($seconds)
