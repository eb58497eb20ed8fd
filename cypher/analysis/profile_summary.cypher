// Memory per memory profile (docs/model.md#profiles) at the phase the game was decayed to: players and memories, mean strength,
// the share of memories still recalled (state neither archived nor tombstoned) and the share whose source is
// forgotten, flashbulbs, lost details, fabricated memories and misattributed sources.
// @param game: STRING  the game id
// @returns profile, players, memories, mean_strength, recalled_share, source_unknown_share, flashbulbs, lost_details, fabricated, misattributed
MATCH (p:Player {game: $game})
USING INDEX p:Player(game)
OPTIONAL MATCH (p)-[:REMEMBERS]->(m:Memory)
WITH p.profile AS profile, count(DISTINCT p) AS players, count(m) AS memories, avg(m.strength) AS mean_strength,
     count(CASE WHEN NOT m.state IN ['archived', 'tombstoned'] THEN 1 END) AS recalled,
     count(CASE WHEN m.source_belief = 'unknown' THEN 1 END) AS source_unknown,
     count(CASE WHEN m.flashbulb = true THEN 1 END) AS flashbulbs, coalesce(sum(m.n_lost), 0) AS lost_details,
     count(CASE WHEN m.fabricated = true THEN 1 END) AS fabricated,
     count(CASE WHEN m.misattributed = true
                  OR (m.believed_teller IS NOT NULL AND m.believed_teller <> coalesce(m.teller, '')) THEN 1 END)
       AS misattributed
RETURN profile, players, memories, mean_strength,
       CASE WHEN memories = 0 THEN null ELSE toFloat(recalled) / memories END AS recalled_share,
       CASE WHEN memories = 0 THEN null ELSE toFloat(source_unknown) / memories END AS source_unknown_share,
       flashbulbs, lost_details, fabricated, misattributed
ORDER BY profile
