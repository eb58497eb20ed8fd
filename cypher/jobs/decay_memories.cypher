// Decay every live memory (state active, warm or archived) of a game encoded by phase $to to that phase,
// in closed form (docs/model.md#forgetting, docs/model.md#source-memory, docs/model.md#lifecycle-states): strength = max(floor, e_ref * R(to - t_ref, s)); source_confidence =
// c0 * R(to - t_enc, s_enc)^source_k on the source's own clock; source_belief "unknown" below $unknown_below,
// except for flashbulbs, memories whose last recall attributed them to another teller (`misattributed`: the owner
// names that teller, docs/model.md#misattribution) and the owner's own statements and actions (`own`; a memory stored
// before `own` existed is own when its kind is one of $own_kinds and its event's actor is the owner), which keep
// their source (docs/model.md#source-memory, docs/model.md#flashbulb-memories);
// state active / warm / archived by the band $active and the memory's own threshold; decayed_to = $to.
// R is the forgetting curve $curve (@retention: cypher/fragments/retention.cypher). A memory reinforced after $to
// (t_ref > $to) keeps e_ref (dt is clamped at 0). Candidate, consolidated and tombstoned memories are untouched.
// Batched with CALL IN CONCURRENT TRANSACTIONS (as many at once as the server has cores; every memory is in exactly
// one batch, so batches never touch the same node): run it through session.run (an implicit, auto-commit
// transaction). On 2 cores this is ~1.7 times faster than one batch after another (bench/README.md).
// The outer MATCH reads only `game` (through its index): filtering on `state` there too would make the planner
// materialise every row before the first batch (an Eager for the read/set conflict on `state`).
// Must agree with graphmem.model (forgetting.strength_at, source.source_confidence/source_belief,
// clarity.lifecycle_state) to 1e-9: tests/integration/test_decay_model.py holds them together.
// @param game: STRING  the game id
// @param to: INTEGER  the phase to decay to
// @param curve: STRING  the game's forgetting curve, "exponential" or "power"
// @param active: FLOAT  lifecycle band: a memory is active at strength >= this (parameters.lifecycle.active, 0.40)
// @param unknown_below: FLOAT  the source belief becomes "unknown" below this confidence (parameters.source.unknown_below, 0.3)
// @param own_kinds: LIST<STRING>  the event kinds of the owner's own statements and actions (graphmem.model.source.OWN_KINDS)
// @param batch: INTEGER  memories per transaction
// @returns state, memories
MATCH (m:Memory {game: $game})
USING INDEX m:Memory(game)
CALL (m) {
  WITH m WHERE m.state IN ['active', 'warm', 'archived'] AND m.t_enc <= $to
  WITH m,
       toFloat(CASE WHEN $to > m.t_ref THEN $to - m.t_ref ELSE 0 END) AS dt,
       toFloat($to - m.t_enc) AS dt_enc,
       toFloat(m.s) AS s,
       toFloat(m.s_enc) AS s_enc
  WITH m,
       @retention(dt, s, $curve) AS r,
       @retention(dt_enc, s_enc, $curve) AS r_enc,
       toFloat(coalesce(m.floor, 0.0)) AS floor
  WITH m, r_enc, CASE WHEN m.e_ref * r > floor THEN m.e_ref * r ELSE floor END AS strength
  WITH m, strength, m.c0 * r_enc ^ m.source_k AS confidence
  WITH m, strength, confidence,
       CASE WHEN strength >= $active THEN 'active' WHEN strength >= m.threshold THEN 'warm' ELSE 'archived' END AS state
  SET m.strength = strength,
      m.source_confidence = confidence,
      m.source_belief = CASE
        WHEN confidence >= $unknown_below OR coalesce(m.flashbulb, false) OR coalesce(m.misattributed, false)
          THEN m.source_type
        WHEN m.own IS NOT NULL THEN CASE WHEN m.own THEN m.source_type ELSE 'unknown' END
        WHEN m.kind IN $own_kinds AND EXISTS { (m)-[:OF_EVENT]->(e:Event) WHERE e.actor = m.owner } THEN m.source_type
        ELSE 'unknown' END,
      m.state = state,
      m.decayed_to = $to
  RETURN state
} IN CONCURRENT TRANSACTIONS OF $batch ROWS
RETURN state, count(*) AS memories
