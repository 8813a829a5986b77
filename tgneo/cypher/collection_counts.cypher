// Purpose: every collection of a workspace that holds anything, with what it holds: documents, chunks, statements asserted in the knowledge graph, questions asked (trace roots and sub-traces), and nodes in all; in name order. One pass over the workspace's resources: a listing, not a hot path.
// Params: $workspace
// Returns: collection STRING, documents INTEGER, chunks INTEGER, questions INTEGER, resources INTEGER, statements INTEGER
MATCH (n:Resource {workspace: $workspace})
WHERE n.collection IS NOT NULL AND n.uri IS NOT NULL
WITH n.collection AS collection,
     sum(CASE WHEN n:Document THEN 1 ELSE 0 END) AS documents,
     sum(CASE WHEN n:Chunk THEN 1 ELSE 0 END) AS chunks,
     sum(CASE WHEN n:Question THEN 1 ELSE 0 END) AS questions,
     count(n) AS resources
RETURN collection, documents, chunks, questions, resources,
       COUNT { MATCH (st:Statement {workspace: $workspace, collection: collection})
               WHERE st.id IS NOT NULL AND '' IN st.asserted_in } AS statements
ORDER BY collection
