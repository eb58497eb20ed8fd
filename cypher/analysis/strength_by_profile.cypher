// Mean memory strength per memory profile at every phase of the game, computed from each memory's stored
// closed-form state with the game's forgetting curve (docs/model.md#forgetting: m(t) = max(floor, E * R(t - t0, S)), R
// the curve of cypher/fragments/retention.cypher), from the phase the memory was encoded in to $to.
// What the stored state can tell: from t_ref (the last reinforcement) on, the value is exact (E = e_ref, S = s).
// Before it, only the encoding state (e0 at t_enc, s_enc) is kept: the value there is exact for a memory recalled
// once, and for one recalled more often it ignores the earlier recalls (their phases and boosts are not stored);
// approximated counts those values. Tombstoned memories leave at their tombstone phase.
// recallable counts memories at or above their owner's RetrievalThreshold (flashbulbs always are).
// @param game: STRING  the game id
// @param to: INTEGER = null  the last phase (null: the phase the game was decayed to)
// @returns profile, phase, day, phase_name, memories, mean_strength, min_strength, max_strength, recallable, approximated
MATCH (g:Game {uid: $game})
WITH g, coalesce($to, g.decayed_to) AS last
MATCH (ph:Phase {game: $game})
USING INDEX ph:Phase(game)
WHERE ph.index <= last
MATCH (p:Player {game: $game})-[:REMEMBERS]->(m:Memory)
USING INDEX p:Player(game)
WHERE m.t_enc <= ph.index AND (m.tombstone_phase IS NULL OR ph.index < m.tombstone_phase)
WITH g, ph, p, m, ph.index >= m.t_ref AS exact
WITH g, ph, p, m, exact,
     toFloat(CASE WHEN exact THEN ph.index - m.t_ref ELSE ph.index - m.t_enc END) AS dt,
     toFloat(CASE WHEN exact THEN m.s ELSE m.s_enc END) AS s,
     toFloat(CASE WHEN exact THEN m.e_ref ELSE m.e0 END) AS e
WITH ph, p, m, exact,
     e * @retention(dt, s, g.curve) AS raw
WITH ph, p, m, exact,
     CASE WHEN raw > coalesce(m.floor, 0.0) THEN raw ELSE toFloat(m.floor) END AS strength
RETURN p.profile AS profile, ph.index AS phase, ph.day AS day, ph.name AS phase_name, count(m) AS memories,
       avg(strength) AS mean_strength, min(strength) AS min_strength, max(strength) AS max_strength,
       count(CASE WHEN m.flashbulb = true OR strength >= m.threshold THEN 1 END) AS recallable,
       count(CASE WHEN NOT exact AND m.n > 1 THEN 1 END) AS approximated
ORDER BY profile, phase
