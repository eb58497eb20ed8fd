// Full-text (Lucene) index on memory text, the names it involves (keywords), the statement a statement followed
// (context) and the owner's scope token (scope), for the lexical lane of recall (docs/model.md#candidates-and-ranking):
// recall asks for (topic words) AND scope:TOKEN, so Lucene returns only the owner's matches. The `english` analyzer
// lower-cases, drops English stop words and stems (Porter): "instruments" finds "instrument", "painting" finds
// "paint" (LoCoMo, bench/README.md: the lexical lane alone 0.476 -> 0.521 with stemming). Index and query go through
// the same analyzer, so a scope token is matched as it was indexed. Eventually consistent: a commit hands its index
// updates to a background thread instead of applying them itself (a writing recall that rewrote texts waited for
// Lucene in its commit: bench/README.md, "Recall latency"), and every reader of the index first waits for the updates
// of the transactions committed before it (db.index.fulltext.awaitEventuallyConsistentIndexRefresh, in
// recall/context and recall/earlier_context), so a recall still finds everything committed before it began.
// graphmem.store.schema.ensure_schema rebuilds an index with other properties, another analyzer or updates applied
// in the commit.
// @returns nothing
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (m:Memory) ON EACH [m.text, m.keywords, m.context, m.scope]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: true}}
