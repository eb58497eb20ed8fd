// Resolve open conflicts by the truth the owner now knows (docs/jobs.md#contradictions): status resolved with the resolution, the phase
// and the reason; the losing memories are tombstoned (state "tombstoned", tombstone_reason, tombstone_phase),
// never deleted. Only conflicts still open change: resolved and dismissed ones are never reopened or redone.
// @param resolutions: LIST<MAP>  {uid, resolution, phase, reason, losers (memory uids)}
// @returns resolved, tombstoned
UNWIND $resolutions AS r
MATCH (k:Conflict {uid: r.uid})
WHERE k.status = 'open'
SET k.status = 'resolved', k.resolution = r.resolution, k.resolved_phase = r.phase,
    k.reason = k.reason + '; resolved: ' + r.reason
WITH k, r
CALL (k, r) {
  UNWIND r.losers AS loser
  MATCH (m:Memory {uid: loser})
  WHERE m.state <> 'tombstoned'
  SET m.state = 'tombstoned', m.tombstone_phase = r.phase,
      m.tombstone_reason = 'contradicted by the truth: ' + r.reason + ' (conflict ' + k.uid + ')'
  RETURN count(m) AS tombstoned
}
RETURN count(k) AS resolved, sum(tombstoned) AS tombstoned
