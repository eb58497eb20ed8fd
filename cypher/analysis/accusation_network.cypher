// The accusation network: who voted to banish whom, and who called whom a traitor in a statement (a role claim,
// docs/perception.md#claims: "X is a traitor", stored in claims_json as ["X", "role", "traitor", true] or its equivalent
// ["X", "role", "faithful", false]; any traitor-side role of Game.traitor_roles counts, e.g. "werewolf"; claims
// about oneself are not accusations; in a game with side_names, a side claim counts too: "Charlie is evil" is
// ["Charlie", "side", "evil", true] in Avalon, or ["Charlie", "side", "good", false]). kind is "banish vote",
// "murder vote" (the traitors' choice of victim, with $include_murder_votes) or "traitor claim"; accusations
// counts them per accuser, accused, kind and day. claims_json is read as json.dumps writes it.
// @param game: STRING  the game id
// @param day: INTEGER = null  only this day (null: every day)
// @param include_murder_votes: BOOLEAN = false  also the traitors' murder votes
// @returns accuser, accuser_role, accused, accused_role, kind, day, accusations
OPTIONAL MATCH (g:Game {uid: $game})
WITH coalesce(g.traitor_roles, ['traitor']) AS traitor_roles, coalesce(g.side_names, ['traitor', 'faithful']) AS sides
CALL (traitor_roles, sides) {
  MATCH (e:Event {game: $game})
  USING INDEX e:Event(game)
  WHERE e.kind = 'vote' AND (e.ballot = 'banish' OR ($include_murder_votes AND e.ballot = 'murder'))
    AND ($day IS NULL OR e.day = $day)
  MATCH (e)-[:BY]->(a:Player), (e)-[:TARGETS]->(b:Player)
  RETURN a, b, e.ballot + ' vote' AS kind, e.day AS day
  UNION ALL
  MATCH (e:Event {game: $game})
  USING INDEX e:Event(game)
  WHERE e.kind = 'say' AND ($day IS NULL OR e.day = $day)
    AND (any(r IN traitor_roles WHERE e.claims_json CONTAINS ('"role", "' + r + '", true]'))
         OR e.claims_json CONTAINS '"role", "faithful", false]'
         OR e.claims_json CONTAINS ('"side", "' + sides[0] + '", true]')
         OR e.claims_json CONTAINS ('"side", "' + sides[1] + '", false]'))
  MATCH (e)-[:BY]->(a:Player)
  MATCH (b:Player {game: $game})
  USING INDEX b:Player(game)
  WHERE b <> a AND (any(r IN traitor_roles WHERE e.claims_json CONTAINS ('["' + b.name + '", "role", "' + r + '", true]'))
                    OR e.claims_json CONTAINS ('["' + b.name + '", "role", "faithful", false]')
                    OR e.claims_json CONTAINS ('["' + b.name + '", "side", "' + sides[0] + '", true]')
                    OR e.claims_json CONTAINS ('["' + b.name + '", "side", "' + sides[1] + '", false]'))
  RETURN a, b, 'traitor claim' AS kind, e.day AS day
}
RETURN a.name AS accuser, a.role AS accuser_role, b.name AS accused, b.role AS accused_role, kind, day,
       count(*) AS accusations
ORDER BY day, accuser, accused, kind
