// An attempt with an Idempotency-Key that failed: before its write committed the key is let go (a retry carries
// the request out); after, the key is marked lost (a retry writes nothing, and is told the answer was lost).
// @param uid: STRING  the key's uid
// @param nonce: STRING  this attempt's fence token
// @returns lost
MATCH (k:IdempotencyKey {uid: $uid, nonce: $nonce})
SET k.lost = k.committed
WITH k, k.committed AS lost
CALL (k, lost) {
  WITH k WHERE NOT lost
  DELETE k
}
RETURN lost
