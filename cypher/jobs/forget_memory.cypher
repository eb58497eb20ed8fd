// One memory by uid with its owner, game and state (for `graphmem forget`); no row when no such memory exists.
// @param uid: STRING  the memory's uid
// @returns uid, game, owner, event, kind, state, summary, text, tombstone_reason, tombstone_phase
MATCH (m:Memory {uid: $uid})
RETURN m.uid AS uid, m.game AS game, m.owner AS owner, m.event AS event, m.kind AS kind, m.state AS state,
       m.summary AS summary, m.text AS text,
       m.tombstone_reason AS tombstone_reason, m.tombstone_phase AS tombstone_phase
