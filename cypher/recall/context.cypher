// Everything one recall reads before ranking, in one query (docs/model.md#recall-and-reconsolidation, docs/model.md#working-memory, docs/prompt.md, docs/jobs.md#contradictions): the game and the owner, the owner's
// working memory (Thought nodes: at Game.decayed_to the ones the decay job marked active; at an earlier phase every
// push up to it, for the caller to replay), the owner's open conflicts at the recall phase, and the owner's
// candidate memories as parallel lists of numbers (node ids, access counts, strengths, flashbulb flags, thresholds).
// Candidates: the owner's memories that some cue could bring back at phase `now` (= $at, else Game.decayed_to):
// encoded by `now`, neither consolidated nor tombstoned, and a flashbulb or at least as strong as the cue floor
// max($vague_floor, threshold) * (1 - $cue_support) (graphmem.model.retrieval.cue_floor): below it nothing brings a
// memory back, so it is no candidate and moves no other memory's score. Summaries are ordinary candidates.
// Every value is read from the composite index memory_recall (Memory(game, owner, strength, state, t_enc, t_ref,
// e_ref, s, floor, threshold, flashbulb, n, uid)), never from the store, and at Game.decayed_to the seek starts at
// the lowest cue floor (`weakest`, below): strength at `now` is the closed form of docs/model.md#forgetting (the
// decay job's), max(floor, e_ref * R(now - t_ref, s)); only for a memory rehearsed after `now` (a look into the
// past) are the encoding values e0 and s_enc read from the store. So a memory the owner has long forgotten costs
// one index entry, and its embedding is never read.
// The caller takes each candidate's uid from the node ids it has already met (graphmem.recall.vectors.EmbeddingCache
// .uids, `recall/uids` in the same transaction for the others):
// numbers, not strings, because decoding 10,000 uids and element ids was most of the client's time (the perfect
// profile's owner of 10,000 memories: bench/README.md, graphmem/recall/__init__.py). No join in Cypher.
// The dense and lexical scores are computed by the caller, from the embeddings and words it keeps
// (graphmem.recall.vectors, graphmem.recall.lexical: the lexical statistics are the owner's candidates', never the
// database's, so Neo4j's full-text index is not asked); `n` tells it which memories a reconsolidation has changed
// since it read them.
// No row when the game is not stored; `found` is false when the player is not one of its players.
// @param game: STRING  the game id
// @param player: STRING  the owner's name
// @param player_uid: STRING  the owner's Player uid, which its MemoryVersion shares (graphmem.store.keys.player_uid)
// @param at: INTEGER = null  the phase to recall at (null: the game's decayed_to)
// @param curve: STRING  the forgetting curve when the game has none stored
// @param vague_floor: FLOAT  parameters.clarity.vague_floor (0.15)
// @param cue_support: FLOAT  parameters.recall.cue_support (0.5)
// @param lowest_cue_floor: FLOAT  the cue floor of a memory of threshold 0 (graphmem.model.retrieval.cue_floor: 0.075)
// @param known: MAP = null  {incarnation, version, now, decayed_to} of the candidates the caller holds (null: none)
// @param own_kinds: LIST<STRING>  the event kinds of the owner's own statements and actions (graphmem.model.source.OWN_KINDS), as recall/memories
// @returns decayed_to, curve, now, incarnation, series, players, found, fresh, changed, recued, shown, version, profile, threshold, wm_capacity, emotion_json, thoughts, conflicts, ids, ns, strengths, flashbulbs, thresholds
// CYPHER replan=skip: its plan is kept while the statistics change (graphmem.store.queries, "Query plans")
CYPHER replan=skip
MATCH (g:Game {uid: $game})
WITH g, coalesce($at, g.decayed_to, 0) AS now, coalesce(g.curve, $curve) AS curve
// the stored strength is a memory's strength at the phase it was last decayed or recalled to, at most
// Game.decayed_to, and strength only falls between those writes: at decayed_to no memory weaker than the lowest cue
// floor is a candidate, and the index skips them; an earlier phase reads every memory
WITH g, now, curve, CASE WHEN now >= coalesce(g.decayed_to, 0) THEN $lowest_cue_floor - 1e-9 ELSE -1.0 END AS weakest
CALL (g) {
  OPTIONAL MATCH (g)-[:HAS_PLAYER]->(x:Player)
  WITH x ORDER BY x.name
  RETURN collect(x.name) AS players
}
OPTIONAL MATCH (p:Player {uid: $player_uid})
// fresh: the caller still holds the owner's candidates as this query would read them ($known, from an earlier read:
// the game's incarnation and decayed_to, the recall phase and the owner's memory version), so they are not read
// again. Every write that changes the owner's memories raises the version in its transaction and again once it has
// committed (graphmem.store.versions): this read may see part of a transaction that is committing (the version
// before the index entries), but the second raise comes after the whole write, so the next recall reads again
// (patched: only what the change log names, below, when it covers the version held).
// (max: in a database not yet given the MemoryVersion uniqueness constraint by `graphmem init` or an ingest, two
// first raises at once can create two nodes, which every later raise then sets alike)
OPTIONAL MATCH (v:MemoryVersion {uid: $player_uid})
WITH g, now, curve, weakest, players, p, coalesce(max(v.version), 0) AS version, collect(v) AS vs
WITH g, now, curve, weakest, players, p, version, vs,
     coalesce($known IS NOT NULL AND p IS NOT NULL AND g.incarnation = $known.incarnation
              AND now = $known.now AND coalesce(g.decayed_to, 0) = $known.decayed_to, false) AS same
// patched: the caller holds the candidates at an older version that the owner's change log still covers
// (graphmem.store.versions): only the memories logged at that version or later are read again, by uid, and the
// caller replaces those of its rows (a memory logged may have become a candidate or stopped being one)
WITH g, now, curve, weakest, players, p, version, same AND version = $known.version AS fresh,
     CASE WHEN same AND version > $known.version AND size(vs) = 1 AND vs[0].changes_from <= $known.version
          THEN [i IN range(0, size(vs[0].changed_at) - 1) WHERE vs[0].changed_at[i] >= $known.version
                | vs[0].changed_uids[i]] END AS changed
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
// a fresh or patched read seeks from strength 2, above every memory: the planner would read the index before a
// filter; a patched one reads the memories logged instead, by uid (their values from the store: a few rows)
CALL (now, curve, weakest, fresh, changed) {
  CALL (now, weakest, fresh, changed) {
    WITH CASE WHEN fresh OR changed IS NOT NULL THEN 2.0 ELSE weakest END AS lowest
    MATCH (m:Memory {game: $game, owner: $player})
    USING INDEX m:Memory(game, owner, strength, state, t_enc, t_ref, e_ref, s, floor, threshold, flashbulb, n, uid)
    WHERE m.strength >= lowest AND m.state IN ['active', 'warm', 'candidate', 'archived'] AND m.t_enc <= now
      AND m.t_ref IS NOT NULL AND m.e_ref IS NOT NULL AND m.s IS NOT NULL AND m.floor IS NOT NULL
      AND m.threshold IS NOT NULL AND m.flashbulb IS NOT NULL AND m.n IS NOT NULL AND m.uid IS NOT NULL
    // the index's values, bound here: after the seek, and inside CASE branches, the planner would read the store
    RETURN m, m.n AS n, m.flashbulb AS flashbulb, m.threshold AS threshold, m.floor AS floor, m.t_ref AS t_ref,
           toFloat(m.e_ref) AS e_ref, toFloat(m.s) AS s
    UNION ALL
    WITH weakest, changed WHERE changed IS NOT NULL
    UNWIND changed AS uid
    WITH DISTINCT weakest, uid
    MATCH (m:Memory {uid: uid})
    WHERE m.game = $game AND m.owner = $player
      AND m.strength >= weakest AND m.state IN ['active', 'warm', 'candidate', 'archived'] AND m.t_enc <= now
      AND m.t_ref IS NOT NULL AND m.e_ref IS NOT NULL AND m.s IS NOT NULL AND m.floor IS NOT NULL
      AND m.threshold IS NOT NULL AND m.flashbulb IS NOT NULL AND m.n IS NOT NULL AND m.uid IS NOT NULL
    RETURN m, m.n AS n, m.flashbulb AS flashbulb, m.threshold AS threshold, m.floor AS floor, m.t_ref AS t_ref,
           toFloat(m.e_ref) AS e_ref, toFloat(m.s) AS s
  }
  WITH m, n, flashbulb, threshold, floor,
       CASE WHEN t_ref > now THEN
            toFloat(m.e0) * @retention(toFloat(now - m.t_enc), toFloat(m.s_enc), curve)
          ELSE
            e_ref * @retention(toFloat(now - t_ref), s, curve)
       END AS raw
  WITH m, n, flashbulb, threshold, CASE WHEN raw >= floor THEN raw ELSE toFloat(floor) END AS strength
  WHERE flashbulb
     OR strength >= CASE WHEN threshold > $vague_floor THEN threshold ELSE $vague_floor END * (1.0 - $cue_support)
  // id(): a number where elementId() is a string of ~45 characters; valid within this transaction
  RETURN collect(id(m)) AS ids, collect(n) AS ns, collect(strength) AS strengths, collect(flashbulb) AS flashbulbs,
         collect(threshold) AS thresholds
}
// recued: of each memory logged, what recall/embeddings reads but the embedding, `about` and `context`, which never
// change once written: a recall's write changes the access count, the source cue, the text and the keywords, so the
// caller sets them on the row it keeps (graphmem.recall.vectors.EmbeddingCache.recued) instead of reading the
// embedding again
CALL (changed) {
  UNWIND coalesce(changed, []) AS uid
  WITH DISTINCT uid
  MATCH (m:Memory {uid: uid})
  WHERE m.game = $game AND m.owner = $player
  RETURN collect(@recued_row(m)) AS recued,
         // and each one's row as recall/memories reads it (the same fragment: tests/integration/test_recall_candidates.py
         // holds them equal), so that a recall of it after the write needs no second transaction
         collect(@memory_row(m, $player, $own_kinds)) AS shown
}
RETURN g.decayed_to AS decayed_to, curve, now, g.incarnation AS incarnation, g.series AS series, players, p IS NOT NULL AS found,
       fresh, changed, recued, shown, version,
       p.profile AS profile, p.threshold AS threshold, p.wm_capacity AS wm_capacity, p.emotion_json AS emotion_json,
       thoughts, conflicts, ids, ns, strengths, flashbulbs, thresholds
