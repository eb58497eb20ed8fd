// The events best remembered by their witnesses: ranked by how many witnesses still recall them (memory state
// neither archived nor tombstoned), then by the mean strength of their memories. Outcome lessons are left out.
// @param game: STRING  the game id
// @param limit: INTEGER = 20  how many events
// @returns event, kind, day, text, witnesses, recalled_by, mean_strength, flashbulbs
MATCH (e:Event {game: $game})<-[:OF_EVENT]-(m:Memory)
USING INDEX e:Event(game)
WHERE m.kind <> 'lesson'
WITH e, count(m) AS witnesses, count(CASE WHEN NOT m.state IN ['archived', 'tombstoned'] THEN 1 END) AS recalled_by,
     avg(m.strength) AS mean_strength, count(CASE WHEN m.flashbulb = true THEN 1 END) AS flashbulbs
RETURN e.uid AS event, e.kind AS kind, e.day AS day, e.text AS text, witnesses, recalled_by, mean_strength,
       flashbulbs
ORDER BY recalled_by DESC, mean_strength DESC, e.line
LIMIT $limit
