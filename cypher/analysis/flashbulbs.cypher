// Flashbulb memories (docs/model.md#flashbulb-memories): vivid, confident memories of emotionally intense, surprising, consequential events.
// Their strength never drops below 0.8, but their details still go through reconsolidation, so confidence and
// accuracy can part (Talarico & Rubin 2003): n_lost and fabricated show how far each has drifted.
// emotion_json is the full emotional context at encoding ({emotion: intensity}).
// @param game: STRING  the game id
// @param owner: STRING = null  only this player's (null: everyone's)
// @returns owner, role, memory, event, kind, day, text, flashbulb_score, emotion_peak, emotion_json, surprise, consequence, strength, n_lost, fabricated
MATCH (p:Player {game: $game})-[:REMEMBERS]->(m:Memory)
USING INDEX p:Player(game)
WHERE m.flashbulb = true AND ($owner IS NULL OR p.name = $owner)
RETURN p.name AS owner, p.role AS role, m.uid AS memory, m.event AS event, m.kind AS kind, m.day AS day,
       m.text AS text, m.flashbulb_score AS flashbulb_score, m.emotion_peak AS emotion_peak,
       m.emotion_json AS emotion_json, m.surprise AS surprise, m.consequence AS consequence, m.strength AS strength,
       m.n_lost AS n_lost, m.fabricated AS fabricated
ORDER BY day, owner, memory
