// Every banishment with the votes of its round (the banish votes since the previous banishment): who was
// banished and the role revealed, how many votes they got, and who voted for whom ("voter -> target", traitors
// marked with *). traitor_banished tells whether the faithfuls caught a traitor.
// @param game: STRING  the game id
// @returns day, banished, role_revealed, traitor_banished, votes_for_banished, votes_cast, votes
MATCH (b:Event {game: $game})
USING INDEX b:Event(game)
WHERE b.kind = 'banish'
OPTIONAL MATCH (before:Event {game: $game})
USING INDEX before:Event(game)
WHERE before.kind = 'banish' AND before.line < b.line
WITH b, coalesce(max(before.line), -1) AS since
OPTIONAL MATCH (v:Event {game: $game})-[:BY]->(voter:Player)
USING INDEX v:Event(game)
WHERE v.kind = 'vote' AND v.ballot = 'banish' AND v.line > since AND v.line < b.line
WITH b, v, voter
ORDER BY v.line
WITH b, collect(CASE WHEN v IS NOT NULL THEN voter.name + CASE WHEN voter.role = 'traitor' THEN '*' ELSE '' END
                     + ' -> ' + coalesce(v.targets[0], '?') END) AS votes,
     count(CASE WHEN b.targets[0] IN v.targets THEN 1 END) AS votes_for_banished, count(v) AS votes_cast
RETURN b.day AS day, b.targets[0] AS banished, b.role_revealed AS role_revealed,
       b.role_revealed = 'traitor' AS traitor_banished, votes_for_banished, votes_cast, votes
ORDER BY day, b.line
