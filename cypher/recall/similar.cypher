// Similar memories of the same owner for reconsolidation (SPEC 6 step 3: detail import and misattribution), in
// one pass over the owner's memories that free recall could bring back: encoded by $now, neither consolidated nor
// tombstoned, and not archived at $now (flashbulb, or strength at $now >= the memory's threshold; at the game's
// decayed_to, $stored, the stored state says it, through the index memory_recall). A memory too faded to come to
// mind unbidden cannot lend a detail or a teller either (the cue of a recall is its topic, not the recalled memory).
// Each candidate's embedding is read once and compared with every recalled memory in $uids. Scores are Neo4j's
// normalised cosine (1 + cos) / 2, so cos >= 0.5 is a score >= 0.75.
// For a memory in $full (a detail may be imported) every similar memory is returned, with its details_json.
// For the others only a misattribution can use a donor, and the model takes the most similar one whose teller is
// known and differs from the believed teller: only that one is returned (details_json null), ties broken by uid.
// `teller` is the teller the owner believes gave the donor (null for first-hand memories).
// @param game: STRING  the game id
// @param player: STRING  the owner's name
// @param now: INTEGER  the recall phase
// @param stored: BOOLEAN  whether $now is the game's decayed_to and no flashbulb can be archived (recall/context's skip_archived)
// @param curve: STRING  the game's forgetting curve
// @param threshold: FLOAT  the RetrievalThreshold when the memory has none (recall/context's coalesce(p.threshold, $threshold))
// @param uids: LIST<STRING>  the recalled memories that can use donors
// @param full: LIST<STRING>  those of $uids that can import a detail (they need every donor and its details)
// @param min_score: FLOAT  the least normalised cosine score, (1 + cos) / 2
// @returns uid, other, score, details_json, teller
MATCH (t:Memory) WHERE t.uid IN $uids
WITH collect(t {.uid, .embedding, believed: coalesce(t.believed_teller, t.teller), full: t.uid IN $full}) AS targets
MATCH (o:Memory {game: $game, owner: $player})
USING INDEX o:Memory(game, owner, state, t_enc, t_ref, e_ref, s, floor, threshold, flashbulb, n, uid)
WHERE o.state IN CASE WHEN $stored THEN ['active', 'warm', 'candidate'] ELSE ['active', 'warm', 'candidate', 'archived'] END
  AND o.t_enc <= $now AND o.t_ref IS NOT NULL AND o.e_ref IS NOT NULL AND o.s IS NOT NULL AND o.floor IS NOT NULL
  AND o.threshold IS NOT NULL AND o.flashbulb IS NOT NULL AND o.n IS NOT NULL AND o.uid IS NOT NULL
WITH targets, o, coalesce(o.believed_teller, o.teller) AS teller
WHERE size($full) > 0 OR teller IS NOT NULL  // without an import only memories with a teller can be donors
// not archived at $now: recall/context's rule, in the same order
WITH targets, o, teller, $stored AND o.decayed_to = $now AND o.state IN ['active', 'warm'] AS stored_live,
     CASE WHEN o.decayed_to = $now AND o.strength IS NOT NULL THEN toFloat(o.strength) END AS stored
WITH targets, o, teller, stored_live, stored, CASE WHEN stored IS NOT NULL THEN stored ELSE
     CASE WHEN o.t_ref > $now THEN
          toFloat(o.e0) * CASE $curve WHEN 'power'
            THEN (1.0 + 3.0 * toFloat($now - o.t_enc) / (toFloat(o.s_enc) * log(2.0))) ^ (-0.5)
            ELSE exp(-toFloat($now - o.t_enc) / toFloat(o.s_enc)) END
        ELSE
          toFloat(o.e_ref) * CASE $curve WHEN 'power'
            THEN (1.0 + 3.0 * toFloat($now - o.t_ref) / (toFloat(o.s) * log(2.0))) ^ (-0.5)
            ELSE exp(-toFloat($now - o.t_ref) / toFloat(o.s)) END
     END END AS raw
WITH targets, o, teller, stored_live, CASE WHEN stored IS NOT NULL OR raw >= coalesce(o.floor, 0.0) THEN raw
                                           ELSE toFloat(coalesce(o.floor, 0.0)) END AS strength
WHERE stored_live OR coalesce(o.flashbulb, false) OR strength >= coalesce(o.threshold, $threshold)
// each candidate's embedding is read once, and compared only with the targets it can serve
WITH targets, o, teller, o.embedding AS embedding
UNWIND [t IN targets WHERE o.uid <> t.uid AND (t.full OR (teller IS NOT NULL AND teller <> coalesce(t.believed, '')))
        | {t: t, score: vector.similarity.cosine(t.embedding, embedding)}] AS pair
WITH pair.t AS t, o, teller, pair.score AS score
WHERE score >= $min_score
WITH t, o, teller, score ORDER BY score DESC, o.uid
WITH t, collect({o: o, score: score, teller: teller}) AS donors
UNWIND CASE WHEN t.full THEN donors ELSE donors[..1] END AS d
RETURN t.uid AS uid, d.o.uid AS other, d.score AS score,
       CASE WHEN t.full THEN d.o.details_json END AS details_json, d.teller AS teller
ORDER BY uid, score DESC, other
