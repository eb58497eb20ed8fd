// A series of games at a glance (docs/queries.md#series-of-games): each game in series order with its players, those
// on the hidden side (a role of Game.traitor_roles), the winner, its last phase and the phase its memories are
// decayed to now (past its end for an earlier game: the series' clock, docs/model.md#series-of-games), whether its
// log is complete, and its memories: all, and those still recallable (active or warm). No rows: no such series.
// @param series: STRING  the series name (as given to `graphmem ingest --series` or a header's "series")
// @returns position, game, title, players, hidden_side, winner, last_phase, decayed_to, complete, memories, recallable
MATCH (s:Series {name: $series})<-[r:IN_SERIES]-(g:Game)
WITH r.position AS position, g, coalesce(g.traitor_roles, ['traitor']) AS traitor_roles
CALL (g, traitor_roles) {
  MATCH (g)-[:HAS_PLAYER]->(p:Player)
  WITH p ORDER BY p.name
  RETURN collect(p.name) AS players, collect(CASE WHEN p.role IN traitor_roles THEN p.name END) AS hidden_side
}
CALL (g) {
  MATCH (m:Memory {game: g.uid})
  RETURN count(m) AS memories, count(CASE WHEN m.state IN ['active', 'warm'] THEN 1 END) AS recallable
}
RETURN position, g.uid AS game, g.title AS title, players, hidden_side, g.winner AS winner,
       coalesce(g.last_phase, 0) AS last_phase, coalesce(g.decayed_to, 0) AS decayed_to,
       coalesce(g.complete, false) AS complete, memories, recallable
ORDER BY position
