// Vector index on memory embeddings (cosine), for the dense half of hybrid recall and similarity search.
// @param dimensions: INTEGER  the embedding model's dimension (384 for all-MiniLM-L6-v2)
// @returns nothing
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS
FOR (m:Memory) ON m.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
