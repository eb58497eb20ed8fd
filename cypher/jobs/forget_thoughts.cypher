// Drop the working-memory items (Thought nodes, docs/model.md#working-memory) that ingest pushed automatically from one memory that is
// forgotten on request: a flashbulb or an accusation keeps the event in mind for a few phases, and a forgotten
// memory must not stay in mind. The nodes are kept, marked `forgotten` (the phase) and inactive, so that decay and
// recall skip them and ingesting the log again (MERGE by uid) does not bring them back.
// @param uids: LIST<STRING>  the Thought uids ({game}/thought/{owner}/{event}-flashbulb and -accusation)
// @param phase: INTEGER  the phase it is forgotten at
// @returns dropped
OPTIONAL MATCH (t:Thought) WHERE t.uid IN $uids AND t.forgotten IS NULL
SET t.forgotten = $phase, t.active = false, t.persistence_left = 0
RETURN count(t) AS dropped
