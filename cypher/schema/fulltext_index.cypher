// Full-text (Lucene) index on memory text, the names it involves (keywords) and the owner's scope token (scope),
// for the lexical half of hybrid recall (docs/model.md#candidates-and-ranking): recall asks for (topic words) AND scope:TOKEN, so Lucene
// returns only the owner's matches. graphmem.store.schema.ensure_schema rebuilds an index with other properties.
// @returns nothing
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (m:Memory) ON EACH [m.text, m.keywords, m.scope]
