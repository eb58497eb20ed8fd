// What a player token grants: its game and player, and whether it still works (not revoked; its game stored, and
// not ended when the token was minted during the game). No row for a token the server never minted.
// @param uid: STRING  the token's uid (graphmem.store.keys.token_uid)
// @returns game, player, revoked, expires_with_game, stored, ended
MATCH (t:PlayerToken {uid: $uid})
OPTIONAL MATCH (g:Game {uid: t.game})
RETURN t.game AS game, t.player AS player, t.revoked AS revoked, t.expires_with_game AS expires_with_game,
       g IS NOT NULL AS stored, coalesce(g.complete, false) AS ended
