// Purpose: what a collection holds for search: documents, chunks (with text, embedded), knowledge-graph statements, and named and embedded entities; tells an empty collection from one not indexed yet.
// Params: $workspace, $collection
// Returns: documents INTEGER, chunks INTEGER, chunks_with_text INTEGER, embedded_chunks INTEGER, statements INTEGER, named_entities INTEGER, embedded_entities INTEGER
OPTIONAL MATCH (n:Resource {workspace: $workspace, collection: $collection})
// n.uri IS NOT NULL lets the planner seek the (workspace, collection, uri) index instead of scanning every Resource
WHERE n.uri IS NOT NULL
WITH n, n IS NOT NULL AND NOT n:Source AND NOT n:Explain AS kg
WITH sum(CASE WHEN n:Document THEN 1 ELSE 0 END) AS documents,
     sum(CASE WHEN n:Chunk THEN 1 ELSE 0 END) AS chunks,
     sum(CASE WHEN n:Chunk AND n.text IS NOT NULL THEN 1 ELSE 0 END) AS chunks_with_text,
     sum(CASE WHEN n:Chunk AND n.embedding IS NOT NULL THEN 1 ELSE 0 END) AS embedded_chunks,
     sum(CASE WHEN kg AND n.name IS NOT NULL THEN 1 ELSE 0 END) AS named_entities,
     sum(CASE WHEN kg AND n.embedding IS NOT NULL THEN 1 ELSE 0 END) AS embedded_entities
RETURN documents, chunks, chunks_with_text, embedded_chunks,
       COUNT { MATCH (st:Statement {workspace: $workspace, collection: $collection})
               WHERE st.id IS NOT NULL AND '' IN st.asserted_in } AS statements,
       named_entities, embedded_entities
