// Mission games (Avalon): every quest, in order, with the team votes before it and the cards played on it. team
// lists the players who played a card (in the order they played), fails how many cards failed and failed_by who
// played them (ground truth: each card is a secret vote, remembered by its player alone), hidden_on_team how many
// of the team were on the hidden side (Game.traitor_roles), result the quest's result ("success" or "fail") and
// outcome what the table was told. A quest without cards (Avalon-NLU's logs) gives the team of the last approved
// proposal before it (the team its outcome is about) and fails and failed_by null (not known). proposals counts
// the teams proposed for it and tallies gives what the table was told of each team vote. No rows for a game without
// quests (The Traitors, Mafia).
// @param game: STRING  the game id
// @returns day, team, result, fails, failed_by, hidden_on_team, outcome, proposals, tallies
OPTIONAL MATCH (g:Game {uid: $game})
WITH coalesce(g.traitor_roles, ['traitor']) AS traitor_roles
MATCH (o:Event {game: $game})
USING INDEX o:Event(game)
WHERE o.kind = 'outcome' AND o.ballot = 'quest'
OPTIONAL MATCH (before:Event {game: $game})
USING INDEX before:Event(game)
WHERE before.kind = 'outcome' AND before.ballot = 'quest' AND before.line < o.line
WITH traitor_roles, o, coalesce(max(before.line), -1) AS since
CALL (o, since, traitor_roles) {
  OPTIONAL MATCH (card:Event {game: $game})-[:BY]->(p:Player)
  USING INDEX card:Event(game)
  WHERE card.kind = 'vote' AND card.ballot = 'quest' AND card.line > since AND card.line < o.line
  WITH card, p ORDER BY card.line
  RETURN collect(p.name) AS carded, collect(CASE WHEN card.choice = 'fail' THEN p.name END) AS failed_by,
         count(CASE WHEN p.role IN traitor_roles THEN 1 END) AS hidden_carded
}
CALL (o, since, traitor_roles) {
  OPTIONAL MATCH (proposal:Event {game: $game})
  USING INDEX proposal:Event(game)
  WHERE proposal.kind = 'propose' AND proposal.line > since AND proposal.line < o.line
    AND EXISTS { MATCH (approved:Event {game: $game})
                 USING INDEX approved:Event(game)
                 WHERE approved.kind = 'outcome' AND approved.ballot = 'team' AND approved.result = 'approved'
                   AND approved.line > proposal.line AND approved.line < o.line }
  WITH proposal ORDER BY proposal.line DESC LIMIT 1
  OPTIONAL MATCH (proposal)-[:TARGETS]->(p:Player)
  RETURN coalesce(proposal.targets, []) AS proposed,
         count(CASE WHEN p.role IN traitor_roles THEN 1 END) AS hidden_proposed
}
WITH o, since, size(carded) > 0 AS cards, carded, failed_by, hidden_carded, proposed, hidden_proposed
WITH o, since, CASE WHEN cards THEN carded ELSE proposed END AS team, CASE WHEN cards THEN failed_by END AS failed_by,
     CASE WHEN cards THEN hidden_carded ELSE hidden_proposed END AS hidden_on_team
CALL (o, since) {
  OPTIONAL MATCH (tally:Event {game: $game})
  USING INDEX tally:Event(game)
  WHERE tally.kind = 'outcome' AND tally.ballot = 'team' AND tally.line > since AND tally.line < o.line
  WITH tally ORDER BY tally.line
  RETURN collect(tally.text) AS tallies
}
RETURN o.day AS day, team, o.result AS result, size(failed_by) AS fails, failed_by, hidden_on_team,
       o.text AS outcome, size(tallies) AS proposals, tallies
ORDER BY o.line
