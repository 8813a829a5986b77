// Purpose: (Browser) answer → documents: the source documents behind every edge or chunk a question's answer selected.
// Params: $workspace, $collection, $uri
// Returns: document STRING, title STRING, via STRING (edge or chunk selection), statement STRING, chunk STRING
MATCH (q:TgResource {workspace: $workspace, collection: $collection, uri: $uri})
MATCH (focus:Focus)-[:WAS_DERIVED_FROM]->{1,64}(q)
CALL (focus) {
  MATCH (focus)-[:SELECTED_EDGE]->(sel:EdgeSelection)-[:EDGE]->(st:TgStatement)<-[:CONTAINS]-(sg:TgSubgraph)
  MATCH (sg)-[:WAS_DERIVED_FROM]->(chunk)-[:WAS_DERIVED_FROM]->{0,8}(doc:TgDocument)
  RETURN sel, st.s + ' ' + st.p + ' ' + st.o AS statement, chunk, doc
  UNION
  MATCH (focus)-[:SELECTED_CHUNK]->(sel:ChunkSelection)-[:DOCUMENT]->(chunk)-[:WAS_DERIVED_FROM]->{1,8}(doc:TgDocument)
  RETURN sel, null AS statement, chunk, doc
}
RETURN DISTINCT doc.uri AS document, doc.title AS title, sel.uri AS via, statement, chunk.uri AS chunk
ORDER BY document, via
