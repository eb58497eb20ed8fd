// What a recall reads of the owner's earlier selves in a series of games (docs/model.md#series-of-games): for each
// player the owner's person was in an earlier game, the game's incarnation, phase (`now`: Game.decayed_to, which the
// series job keeps at the series' present, graphmem.jobs.series) and curve, the player's memory version, and that
// player's candidate memories at `now`, chosen and computed exactly as `recall/context` chooses and computes the
// owner's own (read from the composite index memory_recall; not read again when the caller holds them as they are:
// `fresh`; when the caller holds them at an older version that the player's change log covers, only the memories
// logged since are read again, with what the caller's vectors and rows need of them: `changed`, `recued` and
// `shown`, as recall/context reads them). Their lexical scores are the caller's (graphmem.recall.lexical), as the
// owner's own.
// @param player_uid: STRING  the owner's Player uid: `now_selves` lists the games of its earlier selves as stored now, so
//   that the caller, which names the selves it knew of, sees when a game joined or left the series since
// @param selves: LIST<MAP>  {game, player, player_uid, known (null, or {incarnation, version, now, decayed_to} of the candidates the caller holds)}
// @param curve: STRING  the forgetting curve when a game has none stored
// @param vague_floor: FLOAT  parameters.clarity.vague_floor (0.15)
// @param cue_support: FLOAT  parameters.recall.cue_support (0.5)
// @param lowest_cue_floor: FLOAT  the cue floor of a memory of threshold 0 (graphmem.model.retrieval.cue_floor)
// @param player: STRING  the owner's name (the `own` and `witnesses` of the rows shown, as recall/memories)
// @param own_kinds: LIST<STRING>  the event kinds of the owner's own statements and actions (graphmem.model.source.OWN_KINDS)
// @returns now_selves, selves
// CYPHER replan=skip: its plan is kept while the statistics change (graphmem.store.queries, "Query plans")
CYPHER replan=skip
CALL () {
  OPTIONAL MATCH (:Player {uid: $player_uid})<-[mine:PLAYED_AS]-(:Person)-[other:PLAYED_AS]->(:Player)
  WHERE other.position < mine.position
  WITH other ORDER BY other.position
  RETURN collect(other.game) AS now_selves
}
CALL () {
  UNWIND $selves AS self
  MATCH (g:Game {uid: self.game})
  OPTIONAL MATCH (v:MemoryVersion {uid: self.player_uid})
  WITH self, g, coalesce(g.decayed_to, 0) AS now, coalesce(g.curve, $curve) AS curve, coalesce(max(v.version), 0) AS version,
       collect(v) AS vs
  WITH self, g, now, curve, version, vs,
       coalesce(self.known IS NOT NULL AND g.incarnation = self.known.incarnation
                AND now = self.known.now AND coalesce(g.decayed_to, 0) = self.known.decayed_to, false) AS same
  // patched as in recall/context: the memories logged at the version held or later, read again by uid
  WITH self, g, now, curve, version, same AND version = self.known.version AS fresh,
       CASE WHEN same AND version > self.known.version AND size(vs) = 1 AND vs[0].changes_from <= self.known.version
            THEN [i IN range(0, size(vs[0].changed_at) - 1) WHERE vs[0].changed_at[i] >= self.known.version
                  | vs[0].changed_uids[i]] END AS changed
  CALL (self, now, curve, fresh, changed) {
    CALL (self, now, fresh, changed) {
      WITH self, now, CASE WHEN fresh OR changed IS NOT NULL THEN 2.0 ELSE $lowest_cue_floor - 1e-9 END AS lowest
      MATCH (m:Memory {game: self.game, owner: self.player})
      USING INDEX m:Memory(game, owner, strength, state, t_enc, t_ref, e_ref, s, floor, threshold, flashbulb, n, uid)
      WHERE m.strength >= lowest AND m.state IN ['active', 'warm', 'candidate', 'archived'] AND m.t_enc <= now
        AND m.t_ref IS NOT NULL AND m.e_ref IS NOT NULL AND m.s IS NOT NULL AND m.floor IS NOT NULL
        AND m.threshold IS NOT NULL AND m.flashbulb IS NOT NULL AND m.n IS NOT NULL AND m.uid IS NOT NULL
      RETURN m, m.n AS n, m.flashbulb AS flashbulb, m.threshold AS threshold, m.floor AS floor, m.t_ref AS t_ref,
             toFloat(m.e_ref) AS e_ref, toFloat(m.s) AS s
      UNION ALL
      WITH self, now, changed WHERE changed IS NOT NULL
      UNWIND changed AS uid
      WITH DISTINCT self, now, uid
      MATCH (m:Memory {uid: uid})
      WHERE m.game = self.game AND m.owner = self.player
        AND m.strength >= $lowest_cue_floor - 1e-9 AND m.state IN ['active', 'warm', 'candidate', 'archived']
        AND m.t_enc <= now
        AND m.t_ref IS NOT NULL AND m.e_ref IS NOT NULL AND m.s IS NOT NULL AND m.floor IS NOT NULL
        AND m.threshold IS NOT NULL AND m.flashbulb IS NOT NULL AND m.n IS NOT NULL AND m.uid IS NOT NULL
      RETURN m, m.n AS n, m.flashbulb AS flashbulb, m.threshold AS threshold, m.floor AS floor, m.t_ref AS t_ref,
             toFloat(m.e_ref) AS e_ref, toFloat(m.s) AS s
    }
    WITH m, n, flashbulb, threshold, floor,
         e_ref * @retention(toFloat(now - t_ref), s, curve) AS raw
    WITH m, n, flashbulb, threshold, CASE WHEN raw >= floor THEN raw ELSE toFloat(floor) END AS strength
    WHERE flashbulb
       OR strength >= CASE WHEN threshold > $vague_floor THEN threshold ELSE $vague_floor END * (1.0 - $cue_support)
    RETURN collect(id(m)) AS ids, collect(n) AS ns, collect(strength) AS strengths, collect(flashbulb) AS flashbulbs,
           collect(threshold) AS thresholds
  }
  CALL (self, changed) {
    UNWIND coalesce(changed, []) AS uid
    WITH DISTINCT self, uid
    MATCH (m:Memory {uid: uid})
    WHERE m.game = self.game AND m.owner = self.player
    RETURN collect(@recued_row(m)) AS recued,
           collect(@memory_row(m, $player, $own_kinds)) AS shown
  }
  RETURN collect({game: self.game, player: self.player, incarnation: g.incarnation, decayed_to: g.decayed_to,
                  now: now, curve: curve, version: version, fresh: fresh, changed: changed, recued: recued,
                  shown: shown, ids: ids, ns: ns, strengths: strengths, flashbulbs: flashbulbs,
                  thresholds: thresholds}) AS selves
}
RETURN now_selves, selves
