// Tombstone one memory of one owner on request (docs/model.md#lifecycle-states): state "tombstoned", the reason and the phase; the node,
// its edges and its text stay for audit (nothing is deleted). A memory already tombstoned keeps its first reason.
// @param uid: STRING  the memory's uid
// @param game: STRING  the game id
// @param owner: STRING  the owner's player name
// @param reason: STRING  why it is forgotten
// @param phase: INTEGER  the phase it is forgotten at (the game's decayed_to)
// @returns uid, state, tombstone_reason, tombstone_phase, changed
MATCH (m:Memory {uid: $uid})
WHERE m.game = $game AND m.owner = $owner
WITH m, m.state <> 'tombstoned' AS changed
FOREACH (_ IN CASE WHEN changed THEN [1] ELSE [] END |
  SET m.state = 'tombstoned', m.tombstone_reason = $reason, m.tombstone_phase = $phase)
RETURN m.uid AS uid, m.state AS state, m.tombstone_reason AS tombstone_reason,
       m.tombstone_phase AS tombstone_phase, changed
