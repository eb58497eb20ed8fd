// Each player's memory at the phase the game was decayed to, grouped by memory profile: memories held and their
// lifecycle states, mean strength, flashbulbs, source amnesia (source belief "unknown"), lost details,
// fabricated memories, misattributed sources, statements told and heard (TOLD) and open conflicts.
// @param game: STRING  the game id
// @returns profile, player, role, status, memories, active, warm, archived, consolidated, tombstoned, mean_strength, flashbulbs, source_unknown, lost_details, fabricated, misattributed, told, heard, open_conflicts
MATCH (p:Player {game: $game})
USING INDEX p:Player(game)
OPTIONAL MATCH (p)-[:REMEMBERS]->(m:Memory)
WITH p, count(m) AS memories,
     count(CASE WHEN m.state = 'active' THEN 1 END) AS active,
     count(CASE WHEN m.state = 'warm' THEN 1 END) AS warm,
     count(CASE WHEN m.state = 'archived' THEN 1 END) AS archived,
     count(CASE WHEN m.state = 'consolidated' THEN 1 END) AS consolidated,
     count(CASE WHEN m.state = 'tombstoned' THEN 1 END) AS tombstoned,
     avg(m.strength) AS mean_strength,
     count(CASE WHEN m.flashbulb = true THEN 1 END) AS flashbulbs,
     count(CASE WHEN m.source_belief = 'unknown' THEN 1 END) AS source_unknown,
     coalesce(sum(m.n_lost), 0) AS lost_details,
     count(CASE WHEN m.fabricated = true THEN 1 END) AS fabricated,
     count(CASE WHEN m.misattributed = true
                  OR (m.believed_teller IS NOT NULL AND m.believed_teller <> coalesce(m.teller, '')) THEN 1 END)
       AS misattributed
RETURN p.profile AS profile, p.name AS player, p.role AS role, p.status AS status, memories, active, warm, archived,
       consolidated, tombstoned, mean_strength, flashbulbs, source_unknown, lost_details, fabricated, misattributed,
       COUNT { (p)-[:TOLD]->() } AS told, COUNT { (p)<-[:TOLD]-() } AS heard,
       COUNT { MATCH (c:Conflict {game: $game}) WHERE c.owner = p.name AND c.status = 'open' RETURN c }
         AS open_conflicts
ORDER BY profile, player
