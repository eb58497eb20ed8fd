// The memories of one owner the contradiction job compares (docs/jobs.md#contradictions): live ones (state active, warm or archived),
// summaries included (they are what the owner recalls); consolidated and tombstoned memories are left out. With
// each memory what the rules need of its event: who said or did it (the event's actor), its line in the log and
// a vote's ballot (none for a summary).
// @param game: STRING  the game id
// @param owner: STRING  the owner's player name
// @returns uid, event, phase, text, claims_json, about, embedding, kind, speaker, source, day, line, ballot
MATCH (m:Memory {game: $game, owner: $owner})
WHERE m.state IN ['active', 'warm', 'archived']
OPTIONAL MATCH (m)-[:OF_EVENT]->(e:Event)
RETURN m.uid AS uid, m.event AS event, m.t_enc AS phase, m.text AS text,
       coalesce(m.claims_json, '[]') AS claims_json, coalesce(m.about, []) AS about, m.embedding AS embedding,
       m.kind AS kind, e.actor AS speaker, m.source_type AS source, m.day AS day, coalesce(e.line, 0) AS line,
       e.ballot AS ballot
ORDER BY uid
