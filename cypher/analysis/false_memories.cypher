// Memories that no longer match the ground-truth event (docs/model.md#recall-and-reconsolidation, docs/model.md#details-and-how-they-render, docs/model.md#vocabulary-and-units): details lost or fabricated at recall, or
// a misattributed source (the owner now believes someone other than the true teller told them). lost_details names
// the kinds of the lost details (who, whom, where, when, quote, what); fabricated_details lists each imported
// detail as {kind, value, original, origin, origin_owner, origin_event, origin_text}: the value the owner now
// holds, the true value it replaced (null when it was added), and the memory it was imported from. teller is the
// provenance (the Source's GIVEN_BY), believed_teller the owner's belief (null: no teller believed, which is
// forgetting, not misattribution).
// Cypher has no JSON parser: details_json is read as graphmem.model.details.details_to_json writes it (Python's
// json.dumps with its default separators), by splitting on '{"kind": "', which cannot occur inside a JSON string.
// @param game: STRING  the game id
// @param owner: STRING = null  only memories of this player (null: everyone's)
// @returns owner, role, memory, event, kind, day, event_text, memory_text, lost_details, fabricated_details, teller, believed_teller, misattributed, strength, state
MATCH (p:Player {game: $game})-[:REMEMBERS]->(m:Memory)
USING INDEX p:Player(game)
WHERE ($owner IS NULL OR p.name = $owner)
  AND (m.n_lost > 0 OR m.fabricated = true OR m.misattributed = true
       OR (m.believed_teller IS NOT NULL AND m.believed_teller <> coalesce(m.teller, '')))
WITH p, m, [piece IN split(m.details_json, '{"kind": "')[1..] | {
       kind: split(piece, '"')[0],
       value: replace(split(split(piece, '"value": "')[1], '", "lost": ')[0], '\\"', '"'),
       lost: piece CONTAINS '"lost": true',
       fabricated: piece CONTAINS '"fabricated": true',
       original: CASE WHEN piece CONTAINS '"original": "'
                      THEN replace(split(split(piece, '"original": "')[1], '", "origin": ')[0], '\\"', '"') END,
       origin: CASE WHEN piece CONTAINS '"origin": "' THEN split(split(piece, '"origin": "')[1], '"')[0] END
     }] AS details
CALL (details) {
  UNWIND [d IN details WHERE d.fabricated] AS d
  OPTIONAL MATCH (source:Memory {uid: d.origin})
  RETURN collect(d {.kind, .value, .original, .origin, origin_owner: source.owner, origin_event: source.event,
                    origin_text: source.text}) AS fabricated_details
}
OPTIONAL MATCH (m)-[:OF_EVENT]->(e:Event)
OPTIONAL MATCH (m)-[:FROM]->(:Source)-[:GIVEN_BY]->(teller:Player)
RETURN p.name AS owner, p.role AS role, m.uid AS memory, m.event AS event, m.kind AS kind, m.day AS day,
       e.text AS event_text, m.text AS memory_text, [d IN details WHERE d.lost | d.kind] AS lost_details,
       fabricated_details, teller.name AS teller, m.believed_teller AS believed_teller,
       coalesce(m.misattributed, false)
         OR (m.believed_teller IS NOT NULL AND m.believed_teller <> coalesce(teller.name, m.teller, '')) AS misattributed,
       m.strength AS strength, m.state AS state
ORDER BY day, owner, memory
