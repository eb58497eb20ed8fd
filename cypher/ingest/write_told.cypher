// Who told whom: one TOLD edge per statement and listener (MERGE on the event id).
// @param rows: LIST<MAP>  told rows (teller_uid, listener_uid, event, phase, day, channel)
// @returns written
UNWIND $rows AS r
MATCH (teller:Player {uid: r.teller_uid})
MATCH (listener:Player {uid: r.listener_uid})
MERGE (teller)-[t:TOLD {event: r.event}]->(listener)
ON CREATE SET t.phase = r.phase, t.day = r.day, t.channel = r.channel
RETURN count(t) AS written
