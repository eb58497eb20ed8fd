// The owners whose memories lack the full-text scope token `scope` (written by ingest and consolidation since the
// token exists; a database written before needs them backfilled), with how many memories each.
// @returns game, owner, memories
MATCH (m:Memory)
WHERE m.scope IS NULL AND m.game IS NOT NULL AND m.owner IS NOT NULL
RETURN m.game AS game, m.owner AS owner, count(*) AS memories
ORDER BY game, owner
