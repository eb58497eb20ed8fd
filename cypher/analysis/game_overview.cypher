// One game at a glance: its forgetting curve, the phase the decay job brought it to, the winner, the roles of its
// traitor side (Game.traitor_roles; ["traitor"] for a game stored without it) and its size (players, traitors:
// players of a traitor-side role, ground-truth events, memories, TOLD edges, DERIVED_FROM edges). No row: the game
// is not stored.
// @param game: STRING  the game id
// @returns game, title, curve, last_phase, decayed_to, winner, traitor_roles, players, traitors, events, memories, told, derived
MATCH (g:Game {uid: $game})
WITH g, coalesce(g.traitor_roles, ['traitor']) AS traitor_roles
RETURN g.uid AS game, g.title AS title, g.curve AS curve, g.last_phase AS last_phase, g.decayed_to AS decayed_to,
       g.winner AS winner, traitor_roles,
       COUNT { (g)-[:HAS_PLAYER]->() } AS players,
       COUNT { (g)-[:HAS_PLAYER]->(p) WHERE p.role IN traitor_roles } AS traitors,
       COUNT { MATCH (e:Event {game: $game}) RETURN e } AS events,
       COUNT { MATCH (m:Memory {game: $game}) RETURN m } AS memories,
       COUNT { MATCH (:Player {game: $game})-[t:TOLD]->() RETURN t } AS told,
       COUNT { MATCH (m:Memory {game: $game}) USING INDEX m:Memory(game) MATCH (m)-[d:DERIVED_FROM]->() RETURN d }
         AS derived
