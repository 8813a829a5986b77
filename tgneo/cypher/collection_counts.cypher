// Purpose: every collection of a workspace that holds anything, with what it holds: documents, chunks, knowledge-graph facts (typed relationships, property values, and reified edges asserted in the default graph), questions asked (trace roots and sub-traces), and resources in all; in name order. One pass over the workspace's resources: a listing, not a hot path.
// Params: $workspace, $reserved (property keys that hold structure, not facts)
// Returns: collection STRING, documents INTEGER, chunks INTEGER, questions INTEGER, resources INTEGER, statements INTEGER
MATCH (n:TgResource {workspace: $workspace})
WHERE n.collection IS NOT NULL AND n.uri IS NOT NULL
WITH n.collection AS collection,
     sum(CASE WHEN n:TgDocument THEN 1 ELSE 0 END) AS documents,
     sum(CASE WHEN n:TgChunk THEN 1 ELSE 0 END) AS chunks,
     sum(CASE WHEN n:Question THEN 1 ELSE 0 END) AS questions,
     count(n) AS resources,
     sum(COUNT { (n)-[r]->() WHERE r.iri IS NOT NULL }
         + reduce(c = 0, k IN [k IN keys(n) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved] |
                  c + CASE WHEN valueType(n[k]) STARTS WITH 'LIST' THEN size(n[k]) ELSE 1 END)) AS native
RETURN collection, documents, chunks, questions, resources,
       native + COUNT { MATCH (st:TgStatement {workspace: $workspace, collection: collection})
                        WHERE st.id IS NOT NULL AND '' IN st.asserted_in } AS statements
ORDER BY collection
