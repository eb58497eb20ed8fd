// Open contradictions (docs/jobs.md#contradictions) between memories of one owner, the critical ones (identity, lie) first: the
// conflict's kind (identity, lie, temporal, preference, minor), the subject and predicate it concerns, when it was
// detected, what it is in a player's words (text; null for a conflict stored without), and the memories it links
// (uids, texts and days, oldest first).
// @param game: STRING  the game id
// @param owner: STRING = null  only this player's conflicts (null: everyone's)
// @param kind: STRING = null  only conflicts of this kind (null: every kind)
// @returns conflict, owner, kind, subject, predicate, detected_phase, said, memories, texts, days
MATCH (c:Conflict {game: $game})
USING INDEX c:Conflict(game)
WHERE c.status = 'open' AND ($owner IS NULL OR c.owner = $owner) AND ($kind IS NULL OR c.kind = $kind)
OPTIONAL MATCH (c)-[:BETWEEN]->(m:Memory)
WITH c, m
ORDER BY m.t_enc, m.uid
WITH c, collect(m.uid) AS memories, collect(m.text) AS texts, collect(m.day) AS days
RETURN c.uid AS conflict, c.owner AS owner, c.kind AS kind, c.subject AS subject, c.predicate AS predicate,
       c.detected_phase AS detected_phase, c.text AS said, memories, texts, days
ORDER BY CASE kind WHEN 'identity' THEN 0 WHEN 'lie' THEN 1 WHEN 'temporal' THEN 2 WHEN 'preference' THEN 3 ELSE 4 END,
         detected_phase, owner, conflict
