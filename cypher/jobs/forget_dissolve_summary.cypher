// Dissolve the summary a forgotten memory was consolidated into: its text is the gist of that memory too, so it
// is tombstoned (kept for audit, with the reason), and its other members leave the "consolidated" state with
// their strength and lifecycle state at the forgetting phase (computed by the model). CONSOLIDATES edges stay.
// The next consolidation run may cluster the remaining members again, into a summary with a new uid.
// @param summary: STRING  the summary's uid
// @param reason: STRING  why it is tombstoned
// @param phase: INTEGER  the phase
// @param members: LIST<MAP>  one {uid, strength, state} per remaining member
// @returns dissolved
MATCH (s:Memory:Summary {uid: $summary})
SET s.state = 'tombstoned', s.tombstone_reason = $reason, s.tombstone_phase = $phase
WITH s
CALL (s) {
  UNWIND $members AS r
  MATCH (m:Memory {uid: r.uid})
  SET m.state = r.state, m.strength = r.strength, m.summary = null, m.decayed_to = $phase
}
RETURN count(s) AS dissolved
