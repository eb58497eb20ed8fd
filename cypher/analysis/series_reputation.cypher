// Reputation over a series of games (docs/queries.md#series-of-games): for each ordered pair of people who played
// together (observer, observed), the games they played together, in how many of them the observed was on the hidden
// side (a role of Game.traitor_roles) and the observer was (their words are then play, not belief: not judged), how
// many memories the observer still holds about the observed (ABOUT edges; active, warm, or consolidated into a
// summary) and how many they have forgotten (archived or tombstoned), and how often the observer was right about them.
// A judgement is one of the observer's own acts, from the games in which the observer was not on the hidden side:
// a statement or vote reason whose claims (docs/perception.md#claims) take a side on the observed (for: trusts, not
// suspects, a role or side of the open side, not a hidden role; against: suspects, not trusts, a hidden-side role or
// side name, not faithful; a statement that says both is left out), or a team vote on a team the observed was on
// (mission games: approving a team trusts its members, rejecting it acts against them; counting approvals alone made
// every trust share about 1 on the real Avalon series, where statements rarely take a side in words). It is right
// when it matches the observed's true side in that game: trusting a player of the open side, or acting against one
// of the hidden side. accuracy = right / judgements and trust_share = trusts / judgements (null without
// judgements). claims_json is read as json.dumps writes it (names as written).
// @param series: STRING  the series name (as given to `graphmem ingest --series` or a header's "series")
// @param observer: STRING = null  only this person, by name, any case (null: everyone)
// @returns observer, observed, games, observed_hidden, observer_hidden, memories, forgotten, judgements, right, accuracy, trusts, trust_share
MATCH (s:Series {name: $series})-[:HAS_PERSON]->(a:Person)
WHERE $observer IS NULL OR toLower(a.name) = toLower($observer)
MATCH (s)-[:HAS_PERSON]->(b:Person)
WHERE b <> a
MATCH (a)-[pa:PLAYED_AS]->(x:Player), (b)-[pb:PLAYED_AS]->(y:Player)
WHERE pb.game = pa.game
MATCH (g:Game {uid: pa.game})
WITH a, b, g, x, y, coalesce(g.traitor_roles, ['traitor']) AS traitor_roles,
     coalesce(g.side_names, ['traitor', 'faithful']) AS sides
WITH a, b, x, y, x.role IN traitor_roles AS x_hidden, y.role IN traitor_roles AS y_hidden,
     ['["' + x.name + '", "suspects", "' + y.name + '", true]', '["' + x.name + '", "trusts", "' + y.name + '", false]',
      '["' + y.name + '", "side", "' + sides[0] + '", true]', '["' + y.name + '", "side", "' + sides[1] + '", false]',
      '["' + y.name + '", "role", "faithful", false]']
     + [r IN traitor_roles | '["' + y.name + '", "role", "' + r + '", true]'] AS against,
     ['["' + x.name + '", "trusts", "' + y.name + '", true]', '["' + x.name + '", "suspects", "' + y.name + '", false]',
      '["' + y.name + '", "side", "' + sides[1] + '", true]', '["' + y.name + '", "side", "' + sides[0] + '", false]',
      '["' + y.name + '", "role", "faithful", true]']
     + [r IN traitor_roles | '["' + y.name + '", "role", "' + r + '", false]']
     + COLLECT { MATCH (g)-[:HAS_PLAYER]->(p:Player) WHERE NOT p.role IN traitor_roles
                 RETURN DISTINCT '["' + y.name + '", "role", "' + p.role + '", true]' } AS favour
CALL (x, y) {
  MATCH (x)-[:REMEMBERS]->(m:Memory)-[:ABOUT]->(y)
  RETURN count(CASE WHEN m.state IN ['active', 'warm', 'consolidated'] THEN 1 END) AS memories,
         count(CASE WHEN m.state IN ['archived', 'tombstoned'] THEN 1 END) AS forgotten
}
CALL (x, y, x_hidden, y_hidden, against, favour) {
  CALL (x, y, x_hidden, against, favour) {
    MATCH (e:Event)-[:BY]->(x)
    WHERE NOT x_hidden AND e.kind IN ['say', 'vote'] AND e.claims_json CONTAINS ('"' + y.name + '"')
    WITH e, any(c IN favour WHERE e.claims_json CONTAINS c) AS plus,
         any(c IN against WHERE e.claims_json CONTAINS c) AS minus
    WHERE plus <> minus
    RETURN plus AS trusting
    UNION ALL
    MATCH (v:Event)-[:BY]->(x)
    WHERE NOT x_hidden AND v.kind = 'vote' AND v.ballot = 'team' AND v.choice IN ['approve', 'reject']
    CALL (v) {
      MATCH (p:Event {game: v.game})
      WHERE p.kind = 'propose' AND p.line < v.line
      RETURN p ORDER BY p.line DESC LIMIT 1
    }
    MATCH (p)-[:TARGETS]->(y)
    RETURN v.choice = 'approve' AS trusting
  }
  RETURN count(trusting) AS judgements, count(CASE WHEN trusting THEN 1 END) AS trusts,
         count(CASE WHEN trusting <> y_hidden THEN 1 END) AS right
}
WITH a, b, count(*) AS games, count(CASE WHEN y_hidden THEN 1 END) AS observed_hidden,
     count(CASE WHEN x_hidden THEN 1 END) AS observer_hidden, sum(memories) AS memories, sum(forgotten) AS forgotten,
     sum(judgements) AS judgements, sum(right) AS right, sum(trusts) AS trusts
RETURN a.name AS observer, b.name AS observed, games, observed_hidden, observer_hidden, memories, forgotten,
       judgements, right, CASE WHEN judgements > 0 THEN toFloat(right) / judgements END AS accuracy, trusts,
       CASE WHEN judgements > 0 THEN toFloat(trusts) / judgements END AS trust_share
ORDER BY observer, observed
