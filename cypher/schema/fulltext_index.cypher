// Full-text (Lucene) index on memory text and the names it involves (keywords), for the lexical half of hybrid recall (SPEC 6 step 1).
// @returns nothing
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (m:Memory) ON EACH [m.text, m.keywords]
