// Tombstone series summaries that a newer one replaces (docs/jobs.md#consolidation-across-a-series): the same owner's
// person about the same person, written before from other members or in an earlier game. Kept for audit with the
// reason and the phase of their own game; never recalled again. Summaries already tombstoned are left alone.
// @param uids: LIST<STRING>  the summaries' uids
// @param reason: STRING  why (names the summary that replaces them)
// @returns superseded
UNWIND $uids AS uid
MATCH (m:Memory:Summary {uid: uid})
WHERE m.state <> 'tombstoned'
MATCH (g:Game {uid: m.game})
SET m.state = 'tombstoned', m.tombstone_reason = $reason, m.tombstone_phase = coalesce(g.decayed_to, 0)
RETURN count(m) AS superseded
