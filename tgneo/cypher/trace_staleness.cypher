// Purpose: why a trace is stale: each document change recorded against it (mark_stale), oldest first, with the document, and the edge and chunk selections it invalidated — each edge with whether its statement is still in the knowledge graph now, each chunk with whether it is still a chunk of the collection.
// Params: $workspace, $collection, $uri (the trace root)
// Returns: uri STRING, change STRING, at DATETIME, label STRING, document STRING, edges LIST<MAP> (selection, asserted), chunks LIST<MAP> (selection, present)
MATCH (c:Resource {workspace: $workspace, collection: $collection})
WHERE c.uri STARTS WITH $uri + '/change/' AND c:DocumentChange
RETURN c.uri AS uri, c.change AS change, c.startedAtTime AS at, c.label AS label,
       [(c)-[:USED]->(d) | d.uri][0] AS document,
       [(sel:EdgeSelection)-[:WAS_INVALIDATED_BY]->(c) | {
         selection: sel.uri, asserted: coalesce([(sel)-[:EDGE]->(st:Statement) | '' IN st.asserted_in][0], false)
       }] AS edges,
       [(sel:ChunkSelection)-[:WAS_INVALIDATED_BY]->(c) | {
         selection: sel.uri, present: coalesce([(sel)-[:DOCUMENT]->(ch) | ch:Chunk][0], false)
       }] AS chunks
ORDER BY at, uri
