// The players a person was in the earlier games of a game's series (docs/model.md#series-of-games): for the player
// `$player` of `$game`, each game of the same series at a lower position where the same Person played, with that
// game's position, its player's name and the Game's incarnation and phase. Rows in position order; none when the
// game is in no series.
// @param player_uid: STRING  the Player uid (graphmem.store.keys.player_uid)
// @returns game, position, player, incarnation, decayed_to
MATCH (me:Player {uid: $player_uid})<-[mine:PLAYED_AS]-(person:Person)-[other:PLAYED_AS]->(p:Player)
WHERE other.position < mine.position
MATCH (g:Game {uid: other.game})
RETURN g.uid AS game, other.position AS position, p.name AS player, g.incarnation AS incarnation,
       coalesce(g.decayed_to, 0) AS decayed_to
ORDER BY position
