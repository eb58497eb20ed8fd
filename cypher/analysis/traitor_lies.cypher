// Traitors' lies about roles, and who believed them. A lie is a statement by a player who was a traitor when they
// made it, whose role claim (docs/perception.md#claims) contradicts the truth at that moment: calling a faithful a traitor, or
// calling a traitor (themselves or another) faithful. "Traitor" is the traitor side, the roles of
// Game.traitor_roles (["traitor"] for a game stored without it; e.g. "werewolf"), "faithful" every other role of
// the game: in a Werewolf game, "X is the seer" about a werewolf is a lie, subject_role and claimed name the sides.
// In a game with side_names a side claim is read the same way ("I am good" by an evil Avalon player is a lie).
// listeners are the players who heard it (told, overheard or at the round table); believers are the listeners
// outside the traitor side (the liar's fellow traitors know the truth) who afterwards voted to banish the player
// falsely accused (a lie that defends a traitor has no believers by this measure: not voting is not evidence);
// remembered_by counts listeners whose memory of the lie is still recalled (state neither archived nor tombstoned).
// Recruited players count as faithful until their recruitment (by log line). claims_json is read as ingest writes
// it (json.dumps, names as written). In a game without banish votes (a mission game such as Avalon) believers is
// always empty: this measure of belief does not apply there.
// @param game: STRING  the game id
// @returns liar, event, day, channel, subject, subject_role, claimed, text, listeners, believers, remembered_by
OPTIONAL MATCH (g:Game {uid: $game})
WITH coalesce(g.traitor_roles, ['traitor']) AS traitor_roles, coalesce(g.side_names, ['traitor', 'faithful']) AS sides
WITH traitor_roles, sides,
     COLLECT { MATCH (p:Player {game: $game}) WHERE NOT p.role IN traitor_roles RETURN DISTINCT p.role }
     + ['faithful'] AS other_roles
MATCH (e:Event {game: $game})
USING INDEX e:Event(game)
WHERE e.kind = 'say' AND (e.claims_json CONTAINS '"role", ' OR e.claims_json CONTAINS '"side", ')
MATCH (e)-[:BY]->(liar:Player {game: $game})
WHERE liar.role IN traitor_roles
  AND NOT EXISTS { MATCH (r:Event)-[:TARGETS]->(liar) WHERE r.game = $game AND r.kind = 'recruit' AND r.line > e.line }
MATCH (subject:Player {game: $game})
USING INDEX subject:Player(game)
WITH traitor_roles, e, liar, subject,
     any(r IN traitor_roles WHERE e.claims_json CONTAINS ('["' + subject.name + '", "role", "' + r + '", true]'))
       OR e.claims_json CONTAINS ('["' + subject.name + '", "role", "faithful", false]')
       OR e.claims_json CONTAINS ('["' + subject.name + '", "side", "' + sides[0] + '", true]')
       OR e.claims_json CONTAINS ('["' + subject.name + '", "side", "' + sides[1] + '", false]') AS says_traitor,
     any(r IN other_roles WHERE e.claims_json CONTAINS ('["' + subject.name + '", "role", "' + r + '", true]'))
       OR any(r IN traitor_roles WHERE e.claims_json CONTAINS ('["' + subject.name + '", "role", "' + r + '", false]'))
       OR e.claims_json CONTAINS ('["' + subject.name + '", "side", "' + sides[1] + '", true]')
       OR e.claims_json CONTAINS ('["' + subject.name + '", "side", "' + sides[0] + '", false]') AS says_faithful
WHERE says_traitor OR says_faithful
WITH traitor_roles, e, liar, subject, says_traitor,
     subject.role IN traitor_roles
       AND NOT EXISTS { MATCH (r:Event)-[:TARGETS]->(subject)
                        WHERE r.game = $game AND r.kind = 'recruit' AND r.line > e.line } AS subject_is_traitor
WHERE says_traitor <> subject_is_traitor
OPTIONAL MATCH (e)<-[:OF_EVENT]-(heard:Memory)<-[:REMEMBERS]-(listener:Player)
WHERE heard.source_type IN ['direct_told', 'overheard', 'group_discuss']
WITH e, liar, subject, says_traitor, subject_is_traitor, heard, listener,
     says_traitor
       AND NOT (listener.role IN traitor_roles
                AND NOT EXISTS { MATCH (r:Event)-[:TARGETS]->(listener)
                                 WHERE r.game = $game AND r.kind = 'recruit' AND r.line > e.line })
       AND EXISTS { MATCH (v:Event)-[:BY]->(listener) WHERE v.game = $game AND v.kind = 'vote'
                    AND v.ballot = 'banish' AND v.line > e.line AND subject.name IN v.targets } AS believed
ORDER BY listener.name
RETURN liar.name AS liar, e.uid AS event, e.day AS day, e.channel AS channel, subject.name AS subject,
       CASE WHEN subject_is_traitor THEN 'traitor' ELSE 'faithful' END AS subject_role,
       CASE WHEN says_traitor THEN 'traitor' ELSE 'faithful' END AS claimed, e.text AS text,
       collect(listener.name) AS listeners, collect(CASE WHEN believed THEN listener.name END) AS believers,
       count(CASE WHEN NOT heard.state IN ['archived', 'tombstoned'] THEN 1 END) AS remembered_by
ORDER BY day, event, subject
