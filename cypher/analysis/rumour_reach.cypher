// Rumour origins and their reach (docs/perception.md#rumour-chains). Following DERIVED_FROM from a memory to the end of the chain finds the
// rumour's origin: a memory that derives from no other. Its reach is every memory that derives from it, directly
// or through others (memories), and the players other than the origin's owner who hold them (players, reached,
// sorted by name). depth is the longest chain in hops. origin_source is how the origin's owner came to know it:
// first_hand when they saw it; a told source when the chain ends because the teller's own memory was not similar
// enough (cosine < 0.75, no shared claim) to link. One row per origin that reached at least $min_players other
// players, widest reach first.
// @param game: STRING  the game id
// @param min_players: INTEGER = 1  only origins that reached at least this many other players
// @returns origin, origin_owner, origin_role, origin_source, origin_event, origin_kind, origin_day, origin_text, memories, players, reached, depth
MATCH (o:Memory {game: $game})
USING INDEX o:Memory(game)
WHERE (o)<-[:DERIVED_FROM]-() AND NOT (o)-[:DERIVED_FROM]->()
MATCH path = (m:Memory)-[:DERIVED_FROM*1..]->(o)
WITH o, m, length(path) AS hops
ORDER BY m.owner
WITH o, collect(DISTINCT m) AS derived, collect(DISTINCT CASE WHEN m.owner <> o.owner THEN m.owner END) AS reached,
     max(hops) AS depth
WHERE size(reached) >= $min_players
MATCH (owner:Player)-[:REMEMBERS]->(o)
RETURN o.uid AS origin, o.owner AS origin_owner, owner.role AS origin_role, o.source_type AS origin_source,
       o.event AS origin_event, o.kind AS origin_kind, o.day AS origin_day, o.text AS origin_text,
       size(derived) AS memories, size(reached) AS players, reached, depth
ORDER BY players DESC, memories DESC, origin_day, origin
