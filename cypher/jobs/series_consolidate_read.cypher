// What cross-game consolidation reads (docs/jobs.md#consolidation-across-a-series): for the latest game of a series
// (the highest position), each of its players (the owner, or only $player) and each other player of it (the
// observed), the complete games of the series up to the latest in which the two people played together, each with
// the owner's player and the observed's player there, the game's hidden-side roles and side names, and the owner's
// memories there that may tell what they remember of the observed: role reveals (a reveal or banish memory whose
// event revealed a role) and reflections ($reflection_kinds, about the observed), in a remembered state (active,
// warm, or consolidated into a summary); and the owner's series summaries about the observed not tombstoned
// (any game of the series). One row per (owner, observed); none for a series not stored.
// @param series_uid: STRING  the Series uid (graphmem.store.keys.series_uid)
// @param player: STRING = null  the owner's player name in the latest game (null: every player)
// @param reflection_kinds: LIST<STRING>  the memory kinds of reflections
// @returns latest, position, phase, curve, day, phase_name, owner, profile, threshold, observed, observed_person, games, existing
MATCH (s:Series {uid: $series_uid})<-[r:IN_SERIES]-(latest:Game)
WITH s, latest, r ORDER BY r.position DESC LIMIT 1
MATCH (latest)-[:HAS_PLAYER]->(me:Player)<-[:PLAYED_AS]-(owner:Person)
WHERE $player IS NULL OR me.name = $player
MATCH (latest)-[:HAS_PLAYER]->(them:Player)<-[:PLAYED_AS]-(other:Person)
WHERE other <> owner
CALL (latest) {
  OPTIONAL MATCH (latest)-[:HAS_PHASE]->(ph:Phase)
  WHERE ph.index <= coalesce(latest.decayed_to, 0)
  RETURN ph ORDER BY ph.index DESC LIMIT 1
}
CALL (owner, other, r) {
  MATCH (owner)-[a:PLAYED_AS]->(mine:Player), (other)-[b:PLAYED_AS]->(theirs:Player)
  WHERE b.game = a.game AND a.position <= r.position
  MATCH (g:Game {uid: a.game})
  WHERE coalesce(g.complete, false)
  WITH a, g, mine, theirs ORDER BY a.position
  RETURN collect({game: g.uid, position: a.position, mine: mine.name, theirs: theirs.name,
                  traitor_roles: coalesce(g.traitor_roles, ['traitor']),
                  sides: coalesce(g.side_names, ['traitor', 'faithful']),
                  memories: COLLECT {
                    MATCH (mine)-[:REMEMBERS]->(m:Memory)
                    WHERE m.state IN ['active', 'warm', 'consolidated'] AND NOT m:Summary
                      AND (m.kind IN ['reveal', 'banish']
                           OR (m.kind IN $reflection_kinds AND theirs.name IN coalesce(m.about, [])))
                    OPTIONAL MATCH (m)-[:OF_EVENT]->(e:Event)
                    WITH m, e WHERE m.kind IN $reflection_kinds OR e.role_revealed IS NOT NULL
                    RETURN {uid: m.uid, kind: m.kind, text: m.text, details_json: coalesce(m.details_json, '[]'),
                            about: coalesce(m.about, []), role: e.role_revealed, t_enc: m.t_enc,
                            strength: m.strength, s: m.s, salience: m.salience, relevance: m.relevance,
                            emotion_peak: m.emotion_peak, surprise: m.surprise, consequence: m.consequence}
                  }}) AS games
}
RETURN latest.uid AS latest, r.position AS position, coalesce(latest.decayed_to, 0) AS phase, latest.curve AS curve,
       coalesce(ph.day, 0) AS day, coalesce(ph.name, '') AS phase_name, me.name AS owner, me.profile AS profile,
       me.threshold AS threshold, them.name AS observed, other.uid AS observed_person, games,
       COLLECT { MATCH (owner)-[:PLAYED_AS]->(p:Player)-[:REMEMBERS]->(old:Memory:Summary)
                 WHERE old.subject_person = other.uid AND old.state <> 'tombstoned'
                 RETURN {uid: old.uid, game: old.game, owner: p.name} } AS existing
ORDER BY owner, observed
