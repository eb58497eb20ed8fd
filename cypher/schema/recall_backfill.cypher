// Give memories written before the index memory_recall existed the properties it covers, so that recall finds
// them: a memory never recalled has t_ref = t_enc, e_ref = e0 (else its stored strength) and s = s_enc; a memory
// without a stored strength gets e_ref (its strength at t_ref, never below its strength since: recall reads
// memories at least as strong as the lowest cue floor, so an overestimate only reads one more); a memory
// that is no flashbulb has floor 0; the threshold is the owner's (the Player that REMEMBERS it), else $threshold. Each
// Game without an incarnation gets one. Idempotent: only missing values are set.
// @param threshold: FLOAT  the RetrievalThreshold of the default profile
// @param flashbulb_floor: FLOAT  parameters.flashbulb.floor (0.8)
// @returns memories, games
CALL () {
  MATCH (m:Memory)
  WHERE m.t_ref IS NULL OR m.e_ref IS NULL OR m.s IS NULL OR m.floor IS NULL OR m.threshold IS NULL
     OR m.flashbulb IS NULL OR m.n IS NULL OR m.strength IS NULL
  OPTIONAL MATCH (p:Player)-[:REMEMBERS]->(m)
  SET m.t_ref = coalesce(m.t_ref, m.t_enc, 0), m.e_ref = coalesce(m.e_ref, m.e0, m.strength, 0.0),
      m.s = coalesce(m.s, m.s_enc, 1.0), m.strength = coalesce(m.strength, m.e_ref, m.e0, 1.0),
      m.flashbulb = coalesce(m.flashbulb, false),
      m.floor = coalesce(m.floor, CASE WHEN coalesce(m.flashbulb, false) THEN $flashbulb_floor ELSE 0.0 END),
      m.threshold = coalesce(m.threshold, p.threshold, $threshold), m.n = coalesce(m.n, 0)
  RETURN count(m) AS memories
}
CALL () {
  MATCH (g:Game) WHERE g.incarnation IS NULL
  SET g.incarnation = randomUUID()
  RETURN count(g) AS games
}
RETURN memories, games
