// One player's memories with their stored forgetting state (docs/model.md#forgetting), from which the strength at any phase is
// computed (graphmem viz decay draws them): encoding (t_enc, e0, s_enc), last reinforcement (e_ref at t_ref,
// stability s, access count n, last_recalled), floor (0.8 for flashbulbs), the strength and state at decayed_to.
// @param game: STRING  the game id
// @param player: STRING  the player's name
// @returns memory, event, kind, type, day, text, flashbulb, floor, t_enc, e0, s_enc, e_ref, t_ref, s, n, last_recalled, strength, state, threshold, decayed_to
MATCH (m:Memory {game: $game, owner: $player})
USING INDEX m:Memory(game, owner)
RETURN m.uid AS memory, m.event AS event, m.kind AS kind, m.type AS type, m.day AS day, m.text AS text,
       coalesce(m.flashbulb, false) AS flashbulb, coalesce(m.floor, 0.0) AS floor, m.t_enc AS t_enc, m.e0 AS e0,
       m.s_enc AS s_enc, m.e_ref AS e_ref, m.t_ref AS t_ref, m.s AS s, m.n AS n, m.last_recalled AS last_recalled,
       m.strength AS strength, m.state AS state, m.threshold AS threshold, m.decayed_to AS decayed_to
ORDER BY t_enc, memory
