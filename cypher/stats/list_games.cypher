// Every stored game with its size and progress.
// @returns game, title, imported_from, players, last_phase, decayed_to, complete, live, winner, ingested_at, series, series_position
MATCH (g:Game)
RETURN g.uid AS game, g.title AS title, g.imported_from AS imported_from,
       COUNT { (g)-[:HAS_PLAYER]->() } AS players, g.last_phase AS last_phase, g.decayed_to AS decayed_to,
       g.complete AS complete, coalesce(g.live, false) AS live, g.winner AS winner, g.ingested_at AS ingested_at,
       g.series AS series, g.series_position AS series_position
ORDER BY game
