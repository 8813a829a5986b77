// Purpose: (Browser) document → answers: each question whose answer relied on this document, with the answer text (the API's dependents() adds the selections).
// Params: $workspace, $collection, $uri
// Returns: question STRING, query STRING, startedAtTime DATETIME, answer STRING
MATCH (doc:TgDocument:TgResource {workspace: $workspace, collection: $collection, uri: $uri})
CALL (doc) {
  MATCH (doc)<-[:WAS_DERIVED_FROM]-{1,8}(:TgSubgraph)-[:CONTAINS]->(:TgStatement)<-[:EDGE]-(:EdgeSelection)
        <-[:SELECTED_EDGE]-(focus:Focus)
  RETURN focus
  UNION
  MATCH (doc)<-[:WAS_DERIVED_FROM]-{0,8}(:TgResource)<-[:DOCUMENT]-(:ChunkSelection)<-[:SELECTED_CHUNK]-(focus:Focus)
  RETURN focus
}
MATCH (focus)-[:WAS_DERIVED_FROM]->{1,64}(q:Question)
WHERE NOT EXISTS { (q)-[:WAS_DERIVED_FROM]->() }
WITH DISTINCT q
OPTIONAL MATCH (a:Answer)-[:WAS_DERIVED_FROM]->{1,64}(q)
WITH q, a ORDER BY a.uri
WITH q, collect(a)[0] AS answer
RETURN q.uri AS question, q.query AS query, q.startedAtTime AS startedAtTime,
       [(answer)-[:DOCUMENT]->(c:TgContent) | c.text][0] AS answer
ORDER BY startedAtTime DESC, question
