// Source amnesia (docs/model.md#source-memory): memories whose source the owner has forgotten (source_belief "unknown": the source
// confidence fell below 0.3) while the provenance is kept: source_type and teller come from the memory's Source
// node and its GIVEN_BY edge, which never change. By default only memories whose content the owner can still
// recall: the classic case of knowing something without knowing how.
// @param game: STRING  the game id
// @param owner: STRING = null  only this player's memories (null: everyone's)
// @param recallable_only: BOOLEAN = true  only memories still recalled (state neither archived nor tombstoned)
// @returns owner, role, memory, day, text, source_type, teller, source_confidence, strength, state
MATCH (p:Player {game: $game})-[:REMEMBERS]->(m:Memory)
USING INDEX p:Player(game)
WHERE m.source_belief = 'unknown' AND ($owner IS NULL OR p.name = $owner)
  AND (NOT $recallable_only OR NOT m.state IN ['archived', 'tombstoned'])
OPTIONAL MATCH (m)-[:FROM]->(src:Source)
OPTIONAL MATCH (src)-[:GIVEN_BY]->(teller:Player)
RETURN p.name AS owner, p.role AS role, m.uid AS memory, m.day AS day, m.text AS text,
       coalesce(src.type, m.source_type) AS source_type, teller.name AS teller,
       m.source_confidence AS source_confidence, m.strength AS strength, m.state AS state
ORDER BY owner, day, memory
