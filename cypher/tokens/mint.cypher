// Store a new player token, as the SHA-256 of its text only (the token itself is never stored or logged).
// No row when the game or the player is not stored.
// @param uid: STRING  the token's uid (graphmem.store.keys.token_uid)
// @param game: STRING  the game uid
// @param player: STRING  the player's name
// @param now: STRING  ISO timestamp
// @returns player, expires_with_game
MATCH (g:Game {uid: $game})-[:HAS_PLAYER]->(p:Player {name: $player})
CREATE (t:PlayerToken {uid: $uid, game: $game, player: $player, minted_at: $now, revoked: false,
                       expires_with_game: coalesce(g.live, false) AND NOT coalesce(g.complete, false)})
RETURN p.name AS player, t.expires_with_game AS expires_with_game
