// The other members of the summary a forgotten memory was consolidated into, with what their current strength
// and lifecycle state need (they are recalled one by one again once the summary is dissolved).
// @param summary: STRING  the summary's uid
// @param uid: STRING  the forgotten memory's uid
// @returns uid, e_ref, t_ref, s, floor, threshold
MATCH (:Memory:Summary {uid: $summary})-[:CONSOLIDATES]->(m:Memory)
WHERE m.uid <> $uid AND m.state = 'consolidated'
RETURN m.uid AS uid, m.e_ref AS e_ref, m.t_ref AS t_ref, m.s AS s, coalesce(m.floor, 0.0) AS floor,
       m.threshold AS threshold
ORDER BY uid
