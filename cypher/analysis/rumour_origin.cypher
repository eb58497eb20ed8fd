// Where each second-hand memory came from (docs/perception.md#rumour-chains): for every memory that DERIVED_FROM another, the chain followed
// to its end. chain lists the owners from the memory's owner back to the origin's owner; hops is its length;
// weakest_link is the lowest similarity along it (how much the story changed at its weakest step).
// @param game: STRING  the game id
// @param owner: STRING = null  only memories of this player (null: everyone's)
// @returns memory, owner, day, text, origin, origin_owner, origin_source, origin_day, origin_text, chain, hops, weakest_link
MATCH (m:Memory {game: $game})
USING INDEX m:Memory(game)
WHERE ($owner IS NULL OR m.owner = $owner) AND (m)-[:DERIVED_FROM]->()
MATCH path = (m)-[:DERIVED_FROM*1..]->(o:Memory)
WHERE NOT (o)-[:DERIVED_FROM]->()
RETURN m.uid AS memory, m.owner AS owner, m.day AS day, m.text AS text, o.uid AS origin, o.owner AS origin_owner,
       o.source_type AS origin_source, o.day AS origin_day, o.text AS origin_text,
       [n IN nodes(path) | n.owner] AS chain, length(path) AS hops,
       reduce(weakest = 1.0, r IN relationships(path) |
              CASE WHEN r.similarity < weakest THEN r.similarity ELSE weakest END) AS weakest_link
ORDER BY day, owner, memory
