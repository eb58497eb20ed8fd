// Similar memories of the same owner for reconsolidation (SPEC 6 step 3: detail import and misattribution), in
// one pass over the owner's candidates (memories encoded by $now, neither consolidated nor tombstoned): each
// candidate's embedding is read once and compared with every recalled memory in $uids. Scores are Neo4j's
// normalised cosine (1 + cos) / 2, so cos >= 0.5 is a score >= 0.75.
// For a memory in $full (a detail may be imported) every similar memory is returned, with its details_json.
// For the others only a misattribution can use a donor, and the model takes the most similar one whose teller is
// known and differs from the believed teller: only that one is returned (details_json null), ties broken by uid.
// `teller` is the teller the owner believes gave the donor (null for first-hand memories).
// @param game: STRING  the game id
// @param player: STRING  the owner's name
// @param now: INTEGER  the recall phase
// @param uids: LIST<STRING>  the recalled memories that can use donors
// @param full: LIST<STRING>  those of $uids that can import a detail (they need every donor and its details)
// @param min_score: FLOAT  the least normalised cosine score, (1 + cos) / 2
// @returns uid, other, score, details_json, teller
MATCH (t:Memory) WHERE t.uid IN $uids
WITH collect(t {.uid, .embedding, believed: coalesce(t.believed_teller, t.teller), full: t.uid IN $full}) AS targets
MATCH (o:Memory {game: $game, owner: $player})
WHERE o.t_enc <= $now AND NOT o.state IN ['consolidated', 'tombstoned']
WITH targets, o, coalesce(o.believed_teller, o.teller) AS teller
WHERE size($full) > 0 OR teller IS NOT NULL  // without an import only memories with a teller can be donors
WITH targets, o, teller, o.embedding AS embedding
UNWIND targets AS t
WITH t, o, teller, vector.similarity.cosine(t.embedding, embedding) AS score
WHERE score >= $min_score AND o.uid <> t.uid AND (t.full OR (teller IS NOT NULL AND teller <> coalesce(t.believed, '')))
WITH t, o, teller, score ORDER BY score DESC, o.uid
WITH t, collect({o: o, score: score, teller: teller}) AS donors
UNWIND CASE WHEN t.full THEN donors ELSE donors[..1] END AS d
RETURN t.uid AS uid, d.o.uid AS other, d.score AS score,
       CASE WHEN t.full THEN d.o.details_json END AS details_json, d.teller AS teller
ORDER BY uid, score DESC, other
