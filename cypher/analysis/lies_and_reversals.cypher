// Who lies about votes and who flip-flops, with each speaker's true role (docs/jobs.md#contradictions): per speaker,
// the lies the contradiction job caught (statements about a vote that a player saw cast otherwise: "Fletcher claimed
// to have voted for Ellis on day 2, but you saw Fletcher vote for Sudz"; or claims of one's own role or side that a
// reveal the player held contradicts: "Eve said on day 2 that they are good, but you know Eve is evil"; or save
// claims the player knew false: "Mason claimed to have protected Sam on night 1, but it was you who protected Sam") and the
// stance reversals it found (one speaker's stance on one player reversing: "Riley defended Casey on day 1 and accused Casey on day 3"). Conflicts are per
// owner, so one statement heard at the round table is caught by every player who saw the vote: lies and reversals
// count distinct statements (pairs of events), caught_by and noticed_by the players who hold them. role is the
// speaker's role (ground truth), side "traitor" for a role of Game.traitor_roles (["traitor"] for a game stored
// without it), else "faithful": an analyst can compare, e.g., whether traitors flip-flop more. examples: up to
// three of the conflicts' sentences (worded for one of the players who noticed). Run the contradiction job first;
// speakers with neither lie nor reversal are left out.
// @param game: STRING  the game id
// @returns speaker, role, side, lies, caught_by, reversals, reversed_on, noticed_by, examples
OPTIONAL MATCH (g:Game {uid: $game})
OPTIONAL MATCH (g)-[:HAS_PLAYER]->(player:Player)
WITH coalesce(g.traitor_roles, ['traitor']) AS traitor_roles, collect(player {.name, .role}) AS players
MATCH (c:Conflict {game: $game})
USING INDEX c:Conflict(game)
WHERE c.speaker IS NOT NULL AND (c.kind = 'lie' OR (c.kind = 'preference' AND c.predicate = 'stance'))
MATCH (c)-[:BETWEEN]->(m:Memory)
WITH traitor_roles, players, c, collect(m.event) AS events
WITH traitor_roles, players, c, CASE WHEN events[0] < events[1] THEN events ELSE [events[1], events[0]] END AS said
WITH traitor_roles, players, c.speaker AS speaker,
     count(DISTINCT CASE WHEN c.kind = 'lie' THEN said END) AS lies,
     count(DISTINCT CASE WHEN c.kind = 'lie' THEN c.owner END) AS caught_by,
     count(DISTINCT CASE WHEN c.kind = 'preference' THEN said END) AS reversals,
     collect(DISTINCT CASE WHEN c.kind = 'preference' THEN c.subject END) AS reversed_on,
     count(DISTINCT CASE WHEN c.kind = 'preference' THEN c.owner END) AS noticed_by,
     collect(DISTINCT c.text) AS texts
UNWIND [p IN players WHERE p.name = speaker] AS p
RETURN speaker, p.role AS role, CASE WHEN p.role IN traitor_roles THEN 'traitor' ELSE 'faithful' END AS side,
       lies, caught_by, reversals, [x IN reversed_on WHERE x IS NOT NULL] AS reversed_on, noticed_by,
       [t IN texts WHERE t IS NOT NULL][..3] AS examples
ORDER BY lies + reversals DESC, speaker
