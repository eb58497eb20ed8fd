// The names of every stored series of games (docs/graph-model.md#series-of-games), sorted, with their games.
// @returns series, games
MATCH (s:Series)
RETURN s.name AS series, COUNT { (s)<-[:IN_SERIES]-(:Game) } AS games
ORDER BY series
