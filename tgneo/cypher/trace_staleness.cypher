// Purpose: why a trace is stale: each document change recorded against it (mark_stale), oldest first, with the document, and the edge and chunk selections it invalidated — each edge with whether the knowledge graph asserts it now (as a typed relationship, a property value, or a reified edge asserted in the default graph), each chunk with whether it is still a chunk of the collection.
// Params: $workspace, $collection, $uri (the trace root)
// Returns: uri STRING, change STRING, at DATETIME, label STRING, document STRING, edges LIST<MAP> (selection, asserted), chunks LIST<MAP> (selection, present)
MATCH (c:TgResource {workspace: $workspace, collection: $collection})
WHERE c.uri STARTS WITH $uri + '/change/' AND c:DocumentChange
RETURN c.uri AS uri, c.change AS change, c.startedAtTime AS at, c.label AS label,
       [(c)-[:USED]->(d) | d.uri][0] AS document,
       [(sel:EdgeSelection)-[:WAS_INVALIDATED_BY]->(c) | {
         selection: sel.uri,
         asserted: coalesce([(sel)-[:EDGE]->(st:TgStatement) |
           '' IN coalesce(st.asserted_in, [])
           OR EXISTS { MATCH (st)-[:SUBJECT]->(:TgResource)-[r]->() WHERE r.id = st.id }
           OR EXISTS {
             MATCH (st)-[:SUBJECT]->(a:TgResource)
             WHERE st.o_kind = 'literal' AND st.key IS NOT NULL AND a[st.key] IS NOT NULL
             WITH st, a, CASE WHEN valueType(a[st.key]) STARTS WITH 'LIST' THEN a[st.key] ELSE [a[st.key]] END AS vals
             WITH st, vals, coalesce(a['_' + st.key], [v IN vals | '']) AS tags
             WHERE any(i IN range(0, size(vals) - 1)
                       WHERE valueType(vals[i]) = valueType(st.o_value) AND vals[i] = st.o_value AND tags[i] = st.o_tag)
           }][0], false)
       }] AS edges,
       [(sel:ChunkSelection)-[:WAS_INVALIDATED_BY]->(c) | {
         selection: sel.uri, present: coalesce([(sel)-[:DOCUMENT]->(ch) | ch:TgChunk][0], false)
       }] AS chunks
ORDER BY at, uri
