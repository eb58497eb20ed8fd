// Push one working-memory item for a player at the game's current phase (the API's push_thought, docs/model.md#working-memory).
// The id is api-<seq>, where seq continues the game's push order (the uid: $uid_prefix + seq); the decay job's working-memory pass then
// decides whether it is held (capacity, priority).
// @param game: STRING  the game id
// @param player: STRING  the player's name
// @param content: STRING  the thought
// @param priority: FLOAT  in [0, 1]
// @param persistence: INTEGER  phases it stays
// @param trigger: STRING  what pushed it ("api" by default)
// @param uid_prefix: STRING  the uid of the player's API thoughts without the seq (graphmem/store/keys.py)
// A murdered or banished player gets none (as a log may give them no thought): uid is then null and status says why.
// No row when the game or the player is not stored.
// @returns uid, pushed_phase, status
MATCH (g:Game {uid: $game})-[:HAS_PLAYER]->(p:Player {name: $player})
OPTIONAL MATCH (other:Thought {game: $game})
WITH g, p, coalesce(max(other.seq), 0) + 1 AS seq
OPTIONAL CALL (g, p, seq) {
  WITH g, p, seq WHERE coalesce(p.status, 'alive') = 'alive'
  CREATE (p)-[:THINKS]->(t:Thought {uid: $uid_prefix + seq, game: $game, player: $player,
          content: $content, priority: $priority, persistence: $persistence, pushed_phase: g.decayed_to,
          expires_phase: g.decayed_to + $persistence, seq: seq, trigger: $trigger, active: false,
          persistence_left: $persistence})
  RETURN t
}
RETURN t.uid AS uid, t.pushed_phase AS pushed_phase, p.status AS status
