// Werewolf claims that the ground truth contradicts (docs/jobs.md#contradictions gives the same checks from one
// player's side), one row per statement and claim, of the three mistakes people report LLM players making:
// - false_save: a save claim ("I protected Sam last night": predicate protected, about the night of the statement's
//   day) that the night contradicts: nobody protected anyone, the Doctor's protection (a protect vote) is
//   someone else's or of another player, or the player claimed saved was murdered that night;
// - against_shown: a claim of another player's role or side whose side contradicts a role reveal the speaker had
//   been shown before the statement: a Seer stating the opposite of what it checked, a werewolf calling its
//   partner a villager (a bluff). "Villager" said of the Doctor is no contradiction: only the sides are compared
//   (Game.traitor_roles, Game.side_names);
// - vote_for_gone: a vote claim of a ballot round (voted_for with its round) for a player who had left the game
//   before that round's ballot: murdered on that day or earlier, or banished on an earlier day, before the
//   statement.
// claimed is the claim as said, truth what the graph holds against it; heard_by counts the other players who hold
// a memory of the statement. claims_json is read as ingest writes it (json.dumps, names as written). No rows for
// games without these claims (The Traitors, Avalon, Mafia have no saves or Seer).
// @param game: STRING  the game id
// @returns day, check, speaker, speaker_role, subject, claimed, truth, text, heard_by
OPTIONAL MATCH (g:Game {uid: $game})
WITH coalesce(g.traitor_roles, ['traitor']) AS traitor_roles, coalesce(g.side_names, ['traitor', 'faithful']) AS sides
CALL (traitor_roles, sides) {
  MATCH (e:Event {game: $game})-[:BY]->(speaker:Player)
  USING INDEX e:Event(game)
  WHERE e.kind = 'say' AND e.claims_json CONTAINS '"protected"'
  MATCH (x:Player {game: $game})
  WHERE e.claims_json CONTAINS ('["' + speaker.name + '", "protected", "' + x.name + '", true')
  OPTIONAL MATCH (p:Event {game: $game})
  USING INDEX p:Event(game)
  WHERE p.kind = 'vote' AND p.ballot = 'protect' AND p.day = e.day AND p.line < e.line
  OPTIONAL MATCH (k:Event {game: $game})
  USING INDEX k:Event(game)
  WHERE k.kind = 'murder' AND k.day = e.day AND x.name IN k.targets AND k.line < e.line
  WITH e, speaker, x, p, k
  WHERE k IS NOT NULL OR p IS NULL OR p.actor <> speaker.name OR NOT x.name IN p.targets
  RETURN e, speaker, 'false_save' AS check, x.name AS subject, 'protected ' + x.name + ' on night ' + e.day AS claimed,
         CASE WHEN k IS NOT NULL THEN x.name + ' was murdered that night'
              WHEN p IS NULL THEN 'nobody protected anyone that night'
              ELSE p.actor + ' (the Doctor) protected ' + p.targets[0] END AS truth
  UNION ALL
  MATCH (e:Event {game: $game})-[:BY]->(speaker:Player)
  USING INDEX e:Event(game)
  WHERE e.kind = 'say' AND (e.claims_json CONTAINS '"role", ' OR e.claims_json CONTAINS '"side", ')
  MATCH (r:Event {game: $game})-[:WITNESSED_BY]->(speaker)
  USING INDEX r:Event(game)
  WHERE r.kind = 'reveal' AND r.line < e.line AND NOT speaker.name IN r.targets
  WITH DISTINCT traitor_roles, sides, e, speaker, r.targets[0] AS subject, r.role_revealed AS shown
  WITH traitor_roles, sides, e, speaker, subject, shown,
       COLLECT { MATCH (q:Player {game: $game}) RETURN DISTINCT q.role } AS played
  WITH traitor_roles, sides, e, speaker, subject, shown, played + [x IN traitor_roles WHERE NOT x IN played] AS roles
  WITH e, speaker, subject, shown, shown IN traitor_roles OR shown = sides[0] AS hidden,
       [x IN roles WHERE e.claims_json CONTAINS ('["' + subject + '", "role", "' + x + '", true')
        | [x, x IN traitor_roles]]
       + [x IN sides WHERE e.claims_json CONTAINS ('["' + subject + '", "side", "' + x + '", true')
          | [x, x = sides[0]]] AS said
  UNWIND said AS claim
  WITH e, speaker, subject, shown, hidden, claim
  WHERE claim[1] <> hidden
  RETURN e, speaker, 'against_shown' AS check, subject, subject + ' is ' + claim[0] AS claimed,
         speaker.name + ' had been shown that ' + subject + ' is ' + shown AS truth
  UNION ALL
  MATCH (e:Event {game: $game})-[:BY]->(speaker:Player)
  USING INDEX e:Event(game)
  WHERE e.kind = 'say' AND e.claims_json CONTAINS '"voted_for"'
  MATCH (out:Event {game: $game})
  USING INDEX out:Event(game)
  WHERE out.kind IN ['murder', 'banish'] AND out.line < e.line
  WITH e, speaker, out, out.targets[0] AS gone
  UNWIND range(coalesce(out.day, 0) + CASE out.kind WHEN 'banish' THEN 1 ELSE 0 END, coalesce(e.day, -1)) AS round
  WITH e, speaker, out, gone, round
  WHERE e.claims_json CONTAINS ('"voted_for", "' + gone + '", true, ' + toString(round) + ']')
  RETURN e, speaker, 'vote_for_gone' AS check, gone AS subject,
         'a vote for ' + gone + ' in the ballot of day ' + round AS claimed,
         gone + ' was ' + CASE out.kind WHEN 'murder' THEN 'murdered' ELSE 'banished' END + ' on day ' + out.day
         AS truth
}
WITH e, speaker, check, subject, claimed, truth
RETURN e.day AS day, check, speaker.name AS speaker, speaker.role AS speaker_role, subject, claimed, truth,
       e.text AS text,
       size(COLLECT { MATCH (e)<-[:OF_EVENT]-(:Memory)<-[:REMEMBERS]-(p:Player)
                      WHERE p.name <> speaker.name RETURN DISTINCT p.name }) AS heard_by
ORDER BY day, e.line, check, subject
