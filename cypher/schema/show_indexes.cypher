// Every index and its state, with the vector index's configured dimension.
// @returns name, type, state, labels, properties, dimensions, analyzer, eventually_consistent
SHOW INDEXES YIELD name, type, state, labelsOrTypes, properties, options
RETURN name, type, state, labelsOrTypes AS labels, properties,
       options.indexConfig.`vector.dimensions` AS dimensions,
       options.indexConfig.`fulltext.analyzer` AS analyzer,
       options.indexConfig.`fulltext.eventually_consistent` AS eventually_consistent
ORDER BY name
