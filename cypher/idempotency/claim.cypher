// Claim an Idempotency-Key for one attempt of a write, or find the attempt that holds it (docs/service.md,
// "Retries"). A key seen for the first time is claimed with $nonce, the attempt's fence token; a key held already
// comes back as stored: its request's hash, whether its write committed, its answer once kept. A key whose first
// request is older than $keep_ms is gone first (kept at least that long), and so are up to 100 other expired keys.
// @param uid: STRING  the key's uid (graphmem.store.keys.idempotency_uid: the caller and the key)
// @param game: STRING  the game the request writes to
// @param request_sha256: STRING  the hash of the request (method, path and body)
// @param nonce: STRING  this attempt's fence token
// @param keep_ms: INTEGER  milliseconds a key is kept
// @returns claimed, request_sha256, nonce, committed, lost, status, answer_json, age_ms
CALL () {
  MATCH (old:IdempotencyKey) WHERE old.claimed_at < timestamp() - $keep_ms
  WITH old LIMIT 100
  DELETE old
}
MERGE (k:IdempotencyKey {uid: $uid})
ON CREATE SET k.game = $game, k.request_sha256 = $request_sha256, k.nonce = $nonce, k.claimed_at = timestamp(),
              k.committed = false, k.lost = false
RETURN k.nonce = $nonce AND k.status IS NULL AND NOT k.committed AS claimed, k.request_sha256 AS request_sha256,
       k.nonce AS nonce, k.committed AS committed, k.lost AS lost, k.status AS status, k.answer_json AS answer_json,
       timestamp() - k.claimed_at AS age_ms
