// Purpose: what a collection holds for search: documents, chunks (with text, embedded), knowledge-graph facts (typed relationships, property values, reified edges asserted in the default graph), and named and embedded entities; tells an empty collection from one not indexed yet.
// Params: $workspace, $collection, $reserved (property keys that hold structure, not facts)
// Returns: documents INTEGER, chunks INTEGER, chunks_with_text INTEGER, embedded_chunks INTEGER, statements INTEGER, named_entities INTEGER, embedded_entities INTEGER
OPTIONAL MATCH (n:TgResource {workspace: $workspace, collection: $collection})
// n.uri IS NOT NULL lets the planner seek the (workspace, collection, uri) index instead of scanning every TgResource
WHERE n.uri IS NOT NULL
WITH n, n IS NOT NULL AND NOT n:TgSource AND NOT n:TgExplain AS kg
WITH sum(CASE WHEN n:TgDocument THEN 1 ELSE 0 END) AS documents,
     sum(CASE WHEN n:TgChunk THEN 1 ELSE 0 END) AS chunks,
     sum(CASE WHEN n:TgChunk AND n.text IS NOT NULL THEN 1 ELSE 0 END) AS chunks_with_text,
     sum(CASE WHEN n:TgChunk AND n.embedding IS NOT NULL THEN 1 ELSE 0 END) AS embedded_chunks,
     sum(CASE WHEN kg AND n.name IS NOT NULL THEN 1 ELSE 0 END) AS named_entities,
     sum(CASE WHEN kg AND n.embedding IS NOT NULL THEN 1 ELSE 0 END) AS embedded_entities,
     sum(CASE WHEN n IS NULL THEN 0 ELSE COUNT { (n)-[r]->() WHERE r.iri IS NOT NULL }
         + reduce(c = 0, k IN [k IN keys(n) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved] |
                  c + CASE WHEN valueType(n[k]) STARTS WITH 'LIST' THEN size(n[k]) ELSE 1 END) END) AS native
RETURN documents, chunks, chunks_with_text, embedded_chunks,
       native + COUNT { MATCH (st:TgStatement {workspace: $workspace, collection: $collection})
                        WHERE st.id IS NOT NULL AND '' IN st.asserted_in } AS statements,
       named_entities, embedded_entities
