// Drop the working-memory items (Thought nodes, SPEC 7) that ingest pushed automatically from one memory that is
// forgotten on request: a flashbulb or an accusation keeps the event in mind for a few phases, and a forgotten
// memory must not stay in mind. Working memory is transient rehearsal, not memory, so these nodes are deleted; the
// tombstoned memory itself is kept for audit.
// @param uids: LIST<STRING>  the Thought uids ({game}/thought/{owner}/{event}-flashbulb and -accusation)
// @returns dropped
OPTIONAL MATCH (t:Thought) WHERE t.uid IN $uids
DETACH DELETE t
RETURN count(t) AS dropped
