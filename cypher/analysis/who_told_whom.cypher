// Who told whom: the statements each player heard from another, counted per day and channel (private: told
// directly; roundtable, public, traitors: heard in group discussion). One TOLD edge is one statement heard by one
// listener (docs/graph-model.md); overheard statements are not "told" (docs/perception.md#who-remembers-what) and do not count.
// @param game: STRING  the game id
// @param day: INTEGER = null  only this day (null: every day)
// @returns teller, teller_role, listener, listener_role, day, channel, messages
MATCH (a:Player {game: $game})-[t:TOLD]->(b:Player)
USING INDEX a:Player(game)
WHERE $day IS NULL OR t.day = $day
RETURN a.name AS teller, a.role AS teller_role, b.name AS listener, b.role AS listener_role, t.day AS day,
       t.channel AS channel, count(t) AS messages
ORDER BY day, teller, listener, channel
