// Take over an Idempotency-Key whose attempt stopped before its write committed (its process died, or it runs past
// its lease): the key gets this attempt's fence token, so the earlier attempt can no longer commit (its write
// transaction checks the token: idempotency/fence).
// @param uid: STRING  the key's uid
// @param held_by: STRING  the fence token of the attempt that holds it now
// @param nonce: STRING  this attempt's fence token
// @returns taken
OPTIONAL MATCH (k:IdempotencyKey {uid: $uid, nonce: $held_by})
WHERE NOT k.committed AND k.status IS NULL
SET k.nonce = $nonce, k.claimed_at = timestamp()
RETURN k IS NOT NULL AS taken
