// Everything one recall reads, in one query (SPEC 6, 7, 8, 9): the game and the owner, the owner's working memory
// (Thought nodes: at Game.decayed_to the ones the decay job marked active; at an earlier phase every push up to it,
// for the caller to replay), the owner's open conflicts at the recall phase, and the owner's candidate memories.
// Candidates: the owner's memories encoded by phase `now` (= $at, else Game.decayed_to) whose state is neither
// consolidated nor tombstoned (summaries are ordinary candidates). Each gets
//   dense: Neo4j's cosine score (1 + cos) / 2 of the topic and memory embeddings (exact for every candidate; with
//          $ann_k > 0 instead the score of the global vector index memory_embedding for the candidates among its
//          $ann_k nearest memories of any game, null for the others; null without $vector),
//   lexical: the full-text score of $lucene in the index memory_text (text and keywords), 0 when not matched.
//          Both indexes are global (every game); their hits are joined to the candidates by grouping on the node
//          (a hash join, O(candidates + hits), with no property read per hit),
//   strength: m at `now`: the stored strength when the decay job (or a recall) wrote it for `now`, else the closed
//          form (the decay job's formula; the encoding values e0, t_enc, s_enc for a memory rehearsed after `now`),
//   and, for the recallable ones, the SPEC 6 score with the weights in $w.
// The query only PRE-SELECTS: it returns the full properties of the candidates that can be among the best $k
// (recallable within $w.slack, score within $w.slack of the k-th best of the surely recallable), plus dense_min,
// dense_max (over every candidate), lexical_best and the candidate count; graphmem.recall ranks them again in
// Python, exactly, from the closed form.
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
// @param w: MAP  {relevance, strength, dense, lexical, boost, vague_floor, slack}: parameters.recall weights, parameters.clarity.vague_floor, the pre-selection slack
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
  WHERE t.pushed_phase <= now AND (now <> g.decayed_to OR t.active)
  WITH t ORDER BY t.uid
  RETURN collect(t {.uid, .content, .priority, .persistence, .pushed_phase, .seq, .trigger}) AS thoughts
}
CALL (now) {
  OPTIONAL MATCH (c:Conflict {game: $game, owner: $player})-[:BETWEEN]->(cm:Memory)
  WHERE coalesce(c.detected_phase, 0) <= now
    AND (c.status = 'open' OR (c.resolved_phase IS NOT NULL AND c.resolved_phase > now))
  WITH c, cm ORDER BY c.uid, cm.uid
  RETURN collect(CASE WHEN c IS NULL THEN null ELSE {uid: c.uid, subject: c.subject, kind: c.kind, memory: cm.uid} END) AS conflicts
}
CALL (now, curve, p) {
  CALL (now) {
    WITH now WHERE $lucene IS NOT NULL
    CALL db.index.fulltext.queryNodes('memory_text', $lucene) YIELD node, score
    RETURN node AS m, score AS lex, null AS dense, 0 AS candidate
    UNION ALL
    WITH now WHERE $vector IS NOT NULL AND $ann_k > 0
    CALL db.index.vector.queryNodes('memory_embedding', $ann_k, $vector) YIELD node, score
    RETURN node AS m, 0.0 AS lex, score AS dense, 0 AS candidate
    UNION ALL
    MATCH (m:Memory {game: $game, owner: $player})
    WHERE m.t_enc <= now AND NOT m.state IN ['consolidated', 'tombstoned']
    RETURN m, 0.0 AS lex,
           CASE WHEN $vector IS NULL OR $ann_k > 0 THEN null ELSE vector.similarity.cosine($vector, m.embedding) END AS dense,
           1 AS candidate
  }
  WITH m, max(lex) AS lex, max(dense) AS dense, max(candidate) AS candidate
  WHERE candidate = 1
  // m at `now`: the decay job's stored strength when it describes `now`, else the closed form
  WITH m, lex, dense,
       CASE WHEN m.decayed_to = now AND m.strength IS NOT NULL THEN toFloat(m.strength)
            WHEN m.t_ref > now THEN
              toFloat(m.e0) * CASE curve WHEN 'power'
                THEN (1.0 + 3.0 * toFloat(now - m.t_enc) / (toFloat(m.s_enc) * log(2.0))) ^ (-0.5)
                ELSE exp(-toFloat(now - m.t_enc) / toFloat(m.s_enc)) END
            ELSE
              toFloat(m.e_ref) * CASE curve WHEN 'power'
                THEN (1.0 + 3.0 * toFloat(now - m.t_ref) / (toFloat(m.s) * log(2.0))) ^ (-0.5)
                ELSE exp(-toFloat(now - m.t_ref) / toFloat(m.s)) END
       END AS raw
  WITH m, lex, dense, CASE WHEN raw > coalesce(m.floor, 0.0) THEN raw ELSE toFloat(coalesce(m.floor, 0.0)) END AS strength
  WITH collect({m: m, lex: lex, dense: dense, strength: strength}) AS rows, count(*) AS count,
       min(dense) AS dense_min, max(dense) AS dense_max, max(lex) AS lexical_best
  CALL (rows, count, dense_min, dense_max, lexical_best, p) {
    UNWIND rows AS r
    WITH r, r.m AS m
    WITH r, m, coalesce(m.threshold, p.threshold, $threshold) AS threshold, coalesce(m.flashbulb, false) AS flashbulb
    WITH r, m, flashbulb, CASE WHEN threshold > $w.vague_floor THEN threshold ELSE $w.vague_floor END AS lowest
    WHERE flashbulb OR r.strength >= lowest - $w.slack
    WITH r, m, flashbulb, lowest,
         CASE WHEN r.dense IS NULL OR dense_max - dense_min <= 1e-12 THEN 0.0
              ELSE (r.dense - dense_min) / (dense_max - dense_min) END AS dn,
         CASE WHEN lexical_best > 0.0 THEN r.lex / lexical_best ELSE 0.0 END AS ln
    WITH r, m, flashbulb, lowest,
         $w.dense * dn + $w.lexical * ln
           + CASE WHEN any(a IN coalesce(m.about, []) WHERE a IN $participants) THEN $w.boost ELSE 0.0 END AS rel
    WITH r, m, flashbulb, lowest,
         $w.relevance * CASE WHEN rel > 1.0 THEN 1.0 ELSE rel END + $w.strength * r.strength AS score
    WITH r, m, score, flashbulb OR r.strength >= lowest + $w.slack AS sure
    ORDER BY score DESC
    WITH collect({r: r, m: m, score: score, sure: sure}) AS ranked
    WITH ranked, [x IN ranked WHERE x.sure] AS sure
    WITH ranked, CASE WHEN size(sure) >= $k THEN sure[$k - 1].score ELSE -1.0 END AS kth
    UNWIND ranked AS x
    WITH x WHERE x.score >= kth - $w.slack
    WITH x.m AS m, x.r AS r ORDER BY m.uid
    RETURN collect(m {.uid, .event, .kind, .text, .template, .details_json, .about, .t_enc, .day, .phase_name,
                      .flashbulb, .floor, .e0, .s_enc, .e_ref, .t_ref, .s, .n, .salience, .type, .c0, .source_k,
                      .source_type, .teller, .believed_teller, .misattributed, .threshold, .state, .emotion_json,
                      summary: m:Summary, dense: r.dense, lexical: r.lex,
                      witnesses: CASE WHEN m.flashbulb THEN [(m)-[:OF_EVENT]->(:Event)-[:WITNESSED_BY]->(w:Player)
                                                             WHERE w.name <> $player | w.name] ELSE [] END}) AS candidates
  }
  RETURN candidates, count, dense_min, dense_max, lexical_best
}
RETURN g.decayed_to AS decayed_to, curve, now, players, p IS NOT NULL AS found, p.profile AS profile,
       p.threshold AS threshold, p.wm_capacity AS wm_capacity, p.emotion_json AS emotion_json, thoughts,
       conflicts, candidates, count, dense_min, dense_max, lexical_best
