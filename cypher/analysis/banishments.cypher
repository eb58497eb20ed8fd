// Every banishment with the votes of its round (the banish votes since the previous banishment): who was
// banished and the role revealed, how many votes they got, and who voted for whom ("voter -> target", traitors
// marked with *). traitor_banished tells whether the faithfuls caught a traitor: the role revealed is one of the
// game's traitor-side roles (Game.traitor_roles, e.g. "werewolf"; ["traitor"] for a game stored without it).
// Does not apply to mission games (Avalon), which banish nobody: no rows; the quests query covers them.
// @param game: STRING  the game id
// @returns day, banished, role_revealed, traitor_banished, votes_for_banished, votes_cast, votes
OPTIONAL MATCH (g:Game {uid: $game})
WITH coalesce(g.traitor_roles, ['traitor']) AS traitor_roles
MATCH (b:Event {game: $game})
USING INDEX b:Event(game)
WHERE b.kind = 'banish'
OPTIONAL MATCH (before:Event {game: $game})
USING INDEX before:Event(game)
WHERE before.kind = 'banish' AND before.line < b.line
WITH traitor_roles, b, coalesce(max(before.line), -1) AS since
OPTIONAL MATCH (v:Event {game: $game})-[:BY]->(voter:Player)
USING INDEX v:Event(game)
WHERE v.kind = 'vote' AND v.ballot = 'banish' AND v.line > since AND v.line < b.line
WITH traitor_roles, b, v, voter
ORDER BY v.line
WITH traitor_roles, b,
     collect(CASE WHEN v IS NOT NULL THEN voter.name + CASE WHEN voter.role IN traitor_roles THEN '*' ELSE '' END
                     + ' -> ' + coalesce(v.targets[0], '?') END) AS votes,
     count(CASE WHEN b.targets[0] IN v.targets THEN 1 END) AS votes_for_banished, count(v) AS votes_cast
RETURN b.day AS day, b.targets[0] AS banished, b.role_revealed AS role_revealed,
       b.role_revealed IN traitor_roles AS traitor_banished, votes_for_banished, votes_cast, votes
ORDER BY day, b.line
