// Purpose: the audit question — which answered questions used this document, through a selected edge extracted from it (GraphRAG) or a selected chunk of it (DocRAG).
// Params: $workspace, $collection, $uri
// Returns: question STRING, query STRING, startedAtTime DATETIME, via LIST<STRING> (selection URIs)
MATCH (doc:TgDocument:TgResource {workspace: $workspace, collection: $collection, uri: $uri})
CALL (doc) {
  MATCH (doc)<-[:WAS_DERIVED_FROM]-{1,8}(sg:TgSubgraph)-[:CONTAINS]->(:TgStatement)<-[:EDGE]-(sel:EdgeSelection)
        <-[:SELECTED_EDGE]-(focus:Focus)
  RETURN sel, focus
  UNION
  MATCH (doc)<-[:WAS_DERIVED_FROM]-{0,8}(:TgResource)<-[:DOCUMENT]-(sel:ChunkSelection)<-[:SELECTED_CHUNK]-(focus:Focus)
  RETURN sel, focus
}
MATCH (focus)-[:WAS_DERIVED_FROM]->{1,64}(q:Question)
WHERE NOT EXISTS { (q)-[:WAS_DERIVED_FROM]->() }
RETURN q.uri AS question, q.query AS query, q.startedAtTime AS startedAtTime,
       collect(DISTINCT sel.uri) AS via
ORDER BY startedAtTime DESC, question
