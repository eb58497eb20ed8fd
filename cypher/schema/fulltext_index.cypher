// Full-text (Lucene) index on memory text, the names it involves (keywords), the statement a statement followed
// (context) and the owner's scope token (scope), for the lexical lane of recall (docs/model.md#candidates-and-ranking):
// recall asks for (topic words) AND scope:TOKEN, so Lucene returns only the owner's matches. The `english` analyzer
// lower-cases, drops English stop words and stems (Porter): "instruments" finds "instrument", "painting" finds
// "paint" (LoCoMo, bench/README.md: the lexical lane alone 0.476 -> 0.521 with stemming). Index and query go through
// the same analyzer, so a scope token is matched as it was indexed. graphmem.store.schema.ensure_schema rebuilds an
// index with other properties or another analyzer.
// @returns nothing
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (m:Memory) ON EACH [m.text, m.keywords, m.context, m.scope]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
