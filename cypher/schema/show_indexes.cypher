// Every index and its state, with the vector index's configured dimension.
// @returns name, type, state, labels, properties, dimensions
SHOW INDEXES YIELD name, type, state, labelsOrTypes, properties, options
RETURN name, type, state, labelsOrTypes AS labels, properties,
       options.indexConfig.`vector.dimensions` AS dimensions
ORDER BY name
