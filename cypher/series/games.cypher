// The games of a series in order, with what its clock needs (graphmem.model.series), and the series a game is in
// (docs/graph-model.md#series-of-games). Rows: one per game of the series, in position order; none when the series
// is not stored.
// @param series_uid: STRING  the Series uid (graphmem.store.keys.series_uid)
// @returns series, gap, game, position, last_phase, decayed_to, complete
MATCH (s:Series {uid: $series_uid})
OPTIONAL MATCH (g:Game)-[r:IN_SERIES]->(s)
WITH s, g, r ORDER BY r.position
RETURN s.name AS series, s.gap AS gap, g.uid AS game, r.position AS position, coalesce(g.last_phase, 0) AS last_phase,
       coalesce(g.decayed_to, 0) AS decayed_to, coalesce(g.complete, false) AS complete
