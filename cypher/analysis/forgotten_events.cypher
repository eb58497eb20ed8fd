// Events a witness can no longer recall: their memory of it is archived (its strength fell below their
// RetrievalThreshold at the last decay), tombstoned (forgotten on request or superseded), or weaker than
// $threshold. Flashbulb memories never fall below their floor of 0.8 and so never appear; consolidated memories
// are recalled through their summary and do not count as forgotten; outcome lessons are not the event itself and
// are left out. recalled_by counts the event's other witnesses who still recall it (state neither archived nor
// tombstoned).
// @param game: STRING  the game id
// @param threshold: FLOAT = null  a memory weaker than this counts as forgotten (null: below the owner's own threshold)
// @param witness: STRING = null  only this witness (null: every witness)
// @returns event, kind, day, event_text, witness, role, strength, state, reason, recalled_by
MATCH (e:Event {game: $game})<-[:OF_EVENT]-(m:Memory)<-[:REMEMBERS]-(p:Player)
USING INDEX e:Event(game)
WHERE m.kind <> 'lesson' AND ($witness IS NULL OR p.name = $witness)
WITH e, m, p,
     CASE WHEN m.state = 'tombstoned' THEN 'tombstoned'
          WHEN m.state = 'consolidated' OR m.flashbulb = true THEN null
          WHEN m.state = 'archived' THEN 'archived'
          WHEN m.strength < coalesce($threshold, m.threshold) THEN 'below threshold' END AS reason
WHERE reason IS NOT NULL
RETURN e.uid AS event, e.kind AS kind, e.day AS day, e.text AS event_text, p.name AS witness, p.role AS role,
       m.strength AS strength, m.state AS state, reason,
       COUNT { (e)<-[:OF_EVENT]-(other:Memory)
               WHERE other <> m AND other.kind <> 'lesson' AND NOT other.state IN ['archived', 'tombstoned'] }
         AS recalled_by
ORDER BY day, e.line, witness
