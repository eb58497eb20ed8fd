// The memories of one owner the contradiction job compares (SPEC 9): live ones (state active, warm or archived),
// summaries included (they are what the owner recalls); consolidated and tombstoned memories are left out.
// @param game: STRING  the game id
// @param owner: STRING  the owner's player name
// @returns uid, event, phase, text, claims_json, about, embedding
MATCH (m:Memory {game: $game, owner: $owner})
WHERE m.state IN ['active', 'warm', 'archived']
RETURN m.uid AS uid, m.event AS event, m.t_enc AS phase, m.text AS text,
       coalesce(m.claims_json, '[]') AS claims_json, coalesce(m.about, []) AS about, m.embedding AS embedding
ORDER BY uid
