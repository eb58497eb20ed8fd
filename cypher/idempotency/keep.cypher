// Keep the answer of a request sent with an Idempotency-Key: a retry with the key gets it again.
// @param uid: STRING  the key's uid
// @param nonce: STRING  this attempt's fence token
// @param status: INTEGER  the HTTP status of the answer
// @param answer_json: STRING  the answer's body as JSON
// @returns kept
OPTIONAL MATCH (k:IdempotencyKey {uid: $uid, nonce: $nonce})
SET k.status = $status, k.answer_json = $answer_json
RETURN k IS NOT NULL AS kept
