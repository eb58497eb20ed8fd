// Everything one recall reads, in one query (SPEC 6, 7, 8, 9): the game and the owner, the owner's working memory
// (Thought nodes: at Game.decayed_to the ones the decay job marked active; at an earlier phase every push up to it,
// for the caller to replay), the owner's open conflicts at the recall phase, and the owner's candidate memories.
// Candidates: the owner's memories that recall can return at phase `now` (= $at, else Game.decayed_to): encoded by
// `now`, neither consolidated nor tombstoned, and not archived at `now` (SPEC 10: archived = kept, not recalled;
// the decay job's rule: a flashbulb, or strength >= the memory's threshold). Summaries are ordinary candidates.
// They are sought through the index Memory(game, owner, state, t_enc); at Game.decayed_to archived memories are
// left out by the index itself (their stored state is exact there, and stays archived until a rehearsal), so
// their embeddings are never read. Each candidate gets
//   dense: Neo4j's cosine score (1 + cos) / 2 of the topic and memory embeddings (exact for every candidate; with
//          $ann_k > 0 instead the score of the global vector index memory_embedding for the candidates among its
//          $ann_k nearest memories of any game, null for the others; null without $vector),
//   lexical: the full-text score of $lucene in the index memory_text, 0 when not matched; $lucene carries the
//          owner's scope clause (graphmem.recall.lucene), so Lucene returns the owner's matches only. The hits are
//          joined to the candidates by grouping on the node (a hash join, with no property read per hit),
//   strength: m at `now`: the stored strength when the decay job (or a recall) wrote it for `now`, else the closed
//          form (the decay job's formula; the encoding values e0, t_enc, s_enc for a memory rehearsed after `now`),
//   and the SPEC 6 score with the weights in $w.
// The query only PRE-SELECTS: it returns the full properties of the candidates that can be among the best $k
// (recallable within $w.slack, score within $w.slack of the k-th best of the surely recallable), plus dense_min,
// dense_max (over every candidate: the min-max normalisation of SPEC 6 runs over the memories that can be
// recalled), lexical_best and the candidate count; graphmem.recall ranks them again in Python, exactly, from the
// closed form.
// No row when the game is not stored; `found` is false when the player is not one of its players.
// @param game: STRING  the game id
// @param player: STRING  the owner's name
// @param at: INTEGER = null  the phase to recall at (null: the game's decayed_to)
// @param vector: LIST<FLOAT> = null  the topic embedding (null: no topic, no dense scores)
// @param lucene: STRING = null  the escaped Lucene query of the topic (null: no lexical scores)
// @param ann_k: INTEGER = 0  0: exact dense scores of every candidate; > 0: the owner's among the vector index's ann_k nearest
// @param participants: LIST<STRING>  players in the dialogue (memories about them get $w.boost relevance)
// @param k: INTEGER  how many memories the recall keeps
// @param curve: STRING  the forgetting curve when the game has none stored
// @param threshold: FLOAT  the RetrievalThreshold when neither memory nor player has one
// @param w: MAP  {relevance, strength, dense, lexical, boost, vague_floor, slack, similar_cos}: parameters.recall weights, parameters.clarity.vague_floor, the pre-selection slack, parameters.similarity.detail_import
// @param own_kinds: LIST<STRING>  the event kinds of the owner's own statements and actions (graphmem.model.source.OWN_KINDS): a memory stored without `own` is own when its kind is one of them and its event's actor is the owner
// @param archived_flashbulbs: BOOLEAN = false  whether a flashbulb may be archived (graphmem.recall.candidates.flashbulbs_may_be_archived): archived memories are then read at Game.decayed_to too
// @returns decayed_to, curve, now, players, found, profile, threshold, wm_capacity, emotion_json, thoughts, conflicts, candidates, count, dense_min, dense_max, lexical_best
MATCH (g:Game {uid: $game})
WITH g, coalesce($at, g.decayed_to, 0) AS now, coalesce(g.curve, $curve) AS curve
CALL (g) {
  OPTIONAL MATCH (g)-[:HAS_PLAYER]->(x:Player)
  WITH x ORDER BY x.name
  RETURN collect(x.name) AS players
}
OPTIONAL MATCH (p:Player {uid: $game + '/player/' + $player})
CALL (p, g, now) {
  OPTIONAL MATCH (p)-[:THINKS]->(t:Thought)
  WHERE t.pushed_phase <= now AND (now <> g.decayed_to OR t.active) AND t.forgotten IS NULL
  WITH t ORDER BY t.uid
  RETURN collect(t {.uid, .content, .priority, .persistence, .pushed_phase, .seq, .trigger}) AS thoughts
}
CALL (now) {
  OPTIONAL MATCH (c:Conflict {game: $game, owner: $player})-[:BETWEEN]->(cm:Memory)
  WHERE coalesce(c.detected_phase, 0) <= now
    AND (c.status = 'open' OR (c.resolved_phase IS NOT NULL AND c.resolved_phase > now))
  WITH c, cm ORDER BY c.uid, cm.uid
  RETURN collect(CASE WHEN c IS NULL THEN null ELSE {uid: c.uid, subject: c.subject, kind: c.kind, text: c.text,
                                                      memory: cm.uid} END) AS conflicts
}
CALL (now, curve, p, g) {
  CALL (now, curve, p, g) {
    // At Game.decayed_to the stored lifecycle state is the decay job's (or a recall's) for `now`, and a memory
    // archived at an earlier phase is still archived at `now` (strength only falls between rehearsals, and a
    // rehearsal rewrites the state): archived memories are skipped by the index, never read. At an earlier phase
    // the stored state describes decayed_to, not `now`, so archived memories are read too, as are they when a
    // flashbulb floor below the active band ($archived_flashbulbs) may have archived a flashbulb.
    WITH now, curve, p, now = coalesce(g.decayed_to, 0) AND NOT $archived_flashbulbs AS skip_archived
    MATCH (m:Memory {game: $game, owner: $player})
    USING INDEX m:Memory(game, owner, state, t_enc)
    WHERE m.state IN CASE WHEN skip_archived THEN ['active', 'warm', 'candidate']
                          ELSE ['active', 'warm', 'candidate', 'archived'] END
      AND m.t_enc <= now
    // m at `now`: the stored strength (already floored) when the decay job or a recall wrote it for `now`, else
    // the closed form (the encoding values e0, t_enc, s_enc for a memory rehearsed after `now`) with the floor
    WITH m, skip_archived AND m.decayed_to = now AND m.state IN ['active', 'warm'] AS stored_live,
         CASE WHEN m.decayed_to = now AND m.strength IS NOT NULL THEN toFloat(m.strength) END AS stored
    WITH m, stored_live, stored, CASE WHEN stored IS NOT NULL THEN stored ELSE
         CASE WHEN m.t_ref > now THEN
              toFloat(m.e0) * CASE curve WHEN 'power'
                THEN (1.0 + 3.0 * toFloat(now - m.t_enc) / (toFloat(m.s_enc) * log(2.0))) ^ (-0.5)
                ELSE exp(-toFloat(now - m.t_enc) / toFloat(m.s_enc)) END
            ELSE
              toFloat(m.e_ref) * CASE curve WHEN 'power'
                THEN (1.0 + 3.0 * toFloat(now - m.t_ref) / (toFloat(m.s) * log(2.0))) ^ (-0.5)
                ELSE exp(-toFloat(now - m.t_ref) / toFloat(m.s)) END
         END END AS raw
    WITH m, stored_live, CASE WHEN stored IS NOT NULL OR raw >= coalesce(m.floor, 0.0) THEN raw
                              ELSE toFloat(coalesce(m.floor, 0.0)) END AS strength
    // the candidates: not archived at `now` (SPEC 10, the decay job's rule: flashbulb, or strength >= the memory's
    // threshold); a stored active or warm state already says so
    WHERE stored_live OR coalesce(m.flashbulb, false) OR strength >= coalesce(m.threshold, p.threshold, $threshold)
    RETURN m, strength, 0.0 AS lex,
           CASE WHEN $vector IS NULL OR $ann_k > 0 THEN null ELSE vector.similarity.cosine($vector, m.embedding) END AS dense,
           1 AS candidate
    UNION ALL
    WITH now WHERE $lucene IS NOT NULL
    CALL db.index.fulltext.queryNodes('memory_text', $lucene) YIELD node, score
    RETURN node AS m, null AS strength, score AS lex, null AS dense, 0 AS candidate
    UNION ALL
    WITH now WHERE $vector IS NOT NULL AND $ann_k > 0
    CALL db.index.vector.queryNodes('memory_embedding', $ann_k, $vector) YIELD node, score
    RETURN node AS m, null AS strength, 0.0 AS lex, score AS dense, 0 AS candidate
  }
  WITH m, max(strength) AS strength, max(lex) AS lex, max(dense) AS dense, max(candidate) AS candidate
  WHERE candidate = 1
  WITH collect({m: m, lex: lex, dense: dense, strength: strength}) AS rows, count(*) AS count,
       min(dense) AS dense_min, max(dense) AS dense_max, max(lex) AS lexical_best
  CALL (rows, count, dense_min, dense_max, lexical_best, p) {
    UNWIND rows AS r
    WITH r,
         CASE WHEN r.dense IS NULL OR dense_max - dense_min <= 1e-12 THEN 0.0
              ELSE (r.dense - dense_min) / (dense_max - dense_min) END AS dn,
         CASE WHEN lexical_best > 0.0 THEN r.lex / lexical_best ELSE 0.0 END AS ln
    WITH r, $w.dense * dn + $w.lexical * ln
              + CASE WHEN size($participants) > 0 AND any(a IN coalesce(r.m.about, []) WHERE a IN $participants)
                     THEN $w.boost ELSE 0.0 END AS rel
    WITH r, $w.relevance * CASE WHEN rel > 1.0 THEN 1.0 ELSE rel END + $w.strength * r.strength AS score
    ORDER BY score DESC
    WITH collect({r: r, score: score}) AS ranked
    // kth: the k-th best score among the surely recallable (flashbulb, or strength >= max(threshold, vague_floor)
    // + slack), reading thresholds only down the ranking until k are found
    WITH ranked, reduce(acc = {n: 0, kth: -1.0}, x IN ranked |
           CASE WHEN acc.n >= $k THEN acc
                WHEN coalesce(x.r.m.flashbulb, false)
                     OR (x.r.strength >= $w.vague_floor + $w.slack
                         AND x.r.strength >= coalesce(x.r.m.threshold, p.threshold, $threshold) + $w.slack)
                  THEN {n: acc.n + 1, kth: x.score}
                ELSE acc END).kth AS kth
    // the pre-selection: within the slack of the k-th best, and recallable within the slack
    UNWIND [x IN ranked WHERE x.score >= kth - $w.slack] AS x
    WITH x.r AS r, x.r.m AS m, x.score AS score
    WHERE coalesce(m.flashbulb, false)
       OR (r.strength >= $w.vague_floor - $w.slack AND r.strength >= coalesce(m.threshold, p.threshold, $threshold) - $w.slack)
    // similar: the other pre-selected candidates whose embeddings have cosine >= $w.similar_cos with this one (the
    // donors of details and tellers are the memories recalled together, SPEC 6 step 3), among the first 2 $k in
    // the ranking's order (score, then uid: the recalled k are among them, however many candidates tie); each
    // embedding is read once, and the cosines stay in the server (returning embeddings costs far more)
    WITH m, r, score ORDER BY score DESC, m.uid
    WITH collect({m: m, r: r}) AS picked
    WITH picked, [i IN range(0, size(picked) - 1) | CASE WHEN i < 2 * $k THEN picked[i].m.embedding END] AS vectors
    UNWIND range(0, size(picked) - 1) AS i
    WITH picked[i].m AS m, picked[i].r AS r,
         CASE WHEN i < 2 * $k THEN [j IN range(0, size(picked) - 1) WHERE j <> i AND j < 2 * $k
                                    | {uid: picked[j].m.uid, score: vector.similarity.cosine(vectors[i], vectors[j])}]
              ELSE [] END AS pairs
    WITH m, r, [p IN pairs WHERE p.score >= (1.0 + $w.similar_cos) / 2.0 | {uid: p.uid, cosine: 2.0 * p.score - 1.0}]
         AS similar
    ORDER BY m.uid
    RETURN collect(m {.uid, .event, .kind, .text, .template, .details_json, .about, .t_enc, .day, .phase_name,
                      .flashbulb, .floor, .e0, .s_enc, .e_ref, .t_ref, .s, .n, .salience, .type, .c0, .source_k,
                      .source_type, .teller, .believed_teller, .misattributed, .threshold, .state, .emotion_json,
                      summary: m:Summary, dense: r.dense, lexical: r.lex, similar: similar,
                      own: CASE WHEN m.own IS NOT NULL THEN m.own
                                ELSE m.kind IN $own_kinds AND EXISTS { (m)-[:OF_EVENT]->(e:Event) WHERE e.actor = $player } END,
                      witnesses: CASE WHEN m.flashbulb THEN [(m)-[:OF_EVENT]->(:Event)-[:WITNESSED_BY]->(w:Player)
                                                             WHERE w.name <> $player | w.name] ELSE [] END}) AS candidates
  }
  RETURN candidates, count, dense_min, dense_max, lexical_best
}
RETURN g.decayed_to AS decayed_to, curve, now, players, p IS NOT NULL AS found, p.profile AS profile,
       p.threshold AS threshold, p.wm_capacity AS wm_capacity, p.emotion_json AS emotion_json, thoughts,
       conflicts, candidates, count, dense_min, dense_max, lexical_best
