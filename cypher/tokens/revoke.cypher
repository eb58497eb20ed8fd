// Revoke the player tokens of a game (of one player when $player is not null); returns how many were working.
// @param game: STRING  the game uid
// @param player: STRING = null  the player's name, or null for every player
// @returns revoked
MATCH (t:PlayerToken {game: $game})
WHERE ($player IS NULL OR t.player = $player) AND NOT t.revoked
SET t.revoked = true
RETURN count(t) AS revoked
