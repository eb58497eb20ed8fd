// Inside a write transaction of a request sent with an Idempotency-Key: mark the key's write committed, if this
// attempt still holds the key (no retry took it over). The caller rolls the transaction back when it does not.
// @param uid: STRING  the key's uid
// @param nonce: STRING  this attempt's fence token
// @returns held
OPTIONAL MATCH (k:IdempotencyKey {uid: $uid, nonce: $nonce})
SET k.committed = true
RETURN k IS NOT NULL AS held
