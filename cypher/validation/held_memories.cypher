// What one player holds of a game's events right now, for the comparison with people (docs/validation.md): each of
// the owner's memories of an event (summaries, lessons and forgotten memories left out) with its strength as the
// decay job and the owner's recalls left it, its details as they stand (lost and imported ones marked) and whether
// its believed source is misattributed. Read without writing.
// @param game: STRING  the game id
// @param player: STRING  the owner's name
// @returns event, kind, phase, strength, details_json, misattributed
MATCH (m:Memory {game: $game, owner: $player})
USING INDEX m:Memory(game, owner)
WHERE m.event IS NOT NULL AND NOT m:Summary AND m.kind <> 'lesson' AND m.state <> 'tombstoned'
RETURN m.event AS event, m.kind AS kind, m.t_enc AS phase, m.strength AS strength, m.details_json AS details_json,
       coalesce(m.misattributed, false) AS misattributed
ORDER BY phase, event
