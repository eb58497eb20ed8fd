// The memories of one owner that consolidation may cluster (docs/jobs.md#consolidation): live (state active, warm or archived), not
// summaries themselves (no summaries of summaries), not flashbulbs (vivid and distinct by definition: docs/model.md#flashbulb-memories),
// and not part of an open conflict (docs/jobs.md#contradictions: the owner must still see both sides). Ordered by uid.
// @param game: STRING  the game id
// @param owner: STRING  the owner's player name
// @returns uid, kind, text, template, details_json, day, t_enc, phase_name, strength, s, source_type, teller, about, keywords, claims_json, embedding, salience, relevance, emotion_peak, surprise, consequence, threshold, decay_rate, source_k
MATCH (m:Memory {game: $game, owner: $owner})
WHERE m.state IN ['active', 'warm', 'archived'] AND NOT m:Summary AND NOT coalesce(m.flashbulb, false)
  AND m.embedding IS NOT NULL
  AND NOT EXISTS { MATCH (c:Conflict)-[:BETWEEN]->(m) WHERE c.status = 'open' }
RETURN m.uid AS uid, coalesce(m.kind, 'say') AS kind, m.text AS text, coalesce(m.template, m.text) AS template,
       coalesce(m.details_json, '[]') AS details_json, m.day AS day, m.t_enc AS t_enc, m.phase_name AS phase_name,
       m.strength AS strength, m.s AS s, m.source_type AS source_type, m.teller AS teller,
       coalesce(m.about, []) AS about, coalesce(m.keywords, '') AS keywords,
       coalesce(m.claims_json, '[]') AS claims_json, m.embedding AS embedding, m.salience AS salience,
       m.relevance AS relevance, m.emotion_peak AS emotion_peak, m.surprise AS surprise,
       m.consequence AS consequence, m.threshold AS threshold, m.decay_rate AS decay_rate, m.source_k AS source_k
ORDER BY uid
