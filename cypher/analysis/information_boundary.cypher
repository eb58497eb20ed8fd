// Information-boundary check (docs/perception.md#who-remembers-what): MUST RETURN NO ROWS. Each row is a leak of one of five kinds:
// "not a witness": a memory of an event whose owner is not among the event's witnesses (WITNESSED_BY);
// "someone else's secret vote": a memory of a secret vote (a quest card, a team vote seen by its voter alone) held
// by anyone but the voter;
// "someone else's reflection": a memory of a reflection (a player's own conclusion after the game) held by anyone
// but the player who reflected;
// "someone else's belief": a memory of a belief (a conclusion a player stated during the game) held by anyone but
// the player who stated it;
// "faithful holds traitors-only memory": a memory of a traitors-only event (a statement at the traitors' meeting,
// a murder vote, a recruitment) held by a player who was not on the traitor side when it happened (the game's
// Game.traitor_roles, ["traitor"] for a game stored without it). A player recruited later counts as faithful until
// their recruitment (compared by log line).
// @param game: STRING  the game id
// @returns violation, owner, owner_role, memory, event, kind, channel, ballot, day
CALL () {
  MATCH (p:Player {game: $game})-[:REMEMBERS]->(m:Memory)-[:OF_EVENT]->(e:Event)
  USING INDEX p:Player(game)
  WHERE NOT (e)-[:WITNESSED_BY]->(p)
  RETURN 'not a witness' AS violation, p, m, e
  UNION ALL
  OPTIONAL MATCH (g:Game {uid: $game})
  WITH coalesce(g.traitor_roles, ['traitor']) AS traitor_roles
  MATCH (e:Event {game: $game})
  USING INDEX e:Event(game)
  WHERE e.channel = 'traitors' OR e.ballot = 'murder' OR e.kind = 'recruit'
  MATCH (e)<-[:OF_EVENT]-(m:Memory)<-[:REMEMBERS]-(p:Player)
  WHERE NOT p.role IN traitor_roles
     OR EXISTS { MATCH (r:Event)-[:TARGETS]->(p) WHERE r.game = $game AND r.kind = 'recruit' AND r.line > e.line }
  RETURN 'faithful holds traitors-only memory' AS violation, p, m, e
  UNION ALL
  MATCH (e:Event {game: $game})
  USING INDEX e:Event(game)
  WHERE e.secret = true OR e.kind IN ['reflect', 'belief']
  MATCH (e)<-[:OF_EVENT]-(m:Memory)<-[:REMEMBERS]-(p:Player)
  WHERE NOT (e)-[:BY]->(p)
  RETURN CASE e.kind WHEN 'reflect' THEN "someone else's reflection" WHEN 'belief' THEN "someone else's belief"
         ELSE "someone else's secret vote" END AS violation, p, m, e
}
RETURN violation, p.name AS owner, p.role AS owner_role, m.uid AS memory, e.uid AS event, e.kind AS kind,
       e.channel AS channel, e.ballot AS ballot, e.day AS day
ORDER BY day, owner, memory
