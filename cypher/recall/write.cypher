// Write the reconsolidation of the recalled memories (docs/model.md#reconsolidation) in one statement: rehearsal (e_ref, t_ref,
// s, n, strength), the details after loss and import (details_json, n_lost, fabricated, the re-rendered text and
// keywords), the believed teller (believed_teller, misattributed), last_recalled, state and decayed_to.
// A memory whose access count is no longer the one read ($rows[i].n_before: another recall wrote it meanwhile) is
// not matched; the caller compares `written` with the number of rows and rolls the transaction back on a mismatch.
// @param rows: LIST<MAP>  {uid, n_before, e_ref, t_ref, s, n, strength, details_json, n_lost, fabricated, text, keywords, believed_teller, misattributed, last_recalled, state, decayed_to}
// @returns written
// Each memory is write-locked before its access count is compared (SET of a property takes the node's lock until
// commit, and a read after it sees the last committed count): compared without the lock, two concurrent recalls could
// both read n, both pass and one update would be lost. Rows come sorted by uid, so transactions lock in one order.
// CYPHER replan=skip: its plan is kept while the statistics change (graphmem.store.queries, "Query plans")
CYPHER replan=skip
UNWIND $rows AS r
MATCH (m:Memory {uid: r.uid})
SET m.recall_lock = true
REMOVE m.recall_lock
WITH m, r
WHERE m.n = r.n_before
SET m.e_ref = r.e_ref, m.t_ref = r.t_ref, m.s = r.s, m.n = r.n, m.strength = r.strength,
    m.details_json = r.details_json, m.n_lost = r.n_lost, m.fabricated = r.fabricated, m.text = r.text,
    m.keywords = r.keywords, m.believed_teller = r.believed_teller, m.misattributed = r.misattributed,
    m.last_recalled = r.last_recalled, m.state = r.state, m.decayed_to = r.decayed_to
RETURN count(m) AS written
