// The timeline of a game: every phase (index, day, name) with the number of ground-truth events in it, by kind,
// and the players eliminated in it (murdered or banished).
// @param game: STRING  the game id
// @returns phase, day, name, events, by_kind, eliminated
MATCH (ph:Phase {game: $game})
USING INDEX ph:Phase(game)
OPTIONAL MATCH (e:Event)-[:IN_PHASE]->(ph)
WITH ph, e.kind AS kind, count(e) AS n
ORDER BY kind
WITH ph, sum(n) AS events, collect(CASE WHEN n > 0 THEN kind + ' ' + toString(n) END) AS by_kind
RETURN ph.index AS phase, ph.day AS day, ph.name AS name, events, by_kind,
       [(p:Player)<-[:HAS_PLAYER]-(:Game {uid: $game}) WHERE p.eliminated_phase = ph.index | p.name + ' (' + p.status + ')']
         AS eliminated
ORDER BY phase
