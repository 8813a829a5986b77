// Purpose: delete what nothing keeps alive any more among the given statements and resources, in one transaction: a statement asserted in no graph that nothing points at (a triple retracted from the knowledge graph that only a pruned trace kept, quoted), then each given resource, and each resource such a statement named, that is left with no relationship at all and is no source (document, chunk, agent), explainability node or stored text: what forget_document.cypher would have deleted had no trace held it. Knowledge-graph statements (asserted somewhere) and anything still referenced are never touched.
// Params: $workspace, $collection, $statements (statement ids), $resources (resource uris)
// Returns: statements INTEGER, resources INTEGER (deleted)
CALL () {
  UNWIND $statements AS id
  MATCH (st:Statement {workspace: $workspace, collection: $collection, id: id})
  WHERE size(coalesce(st.asserted_in, [])) = 0 AND NOT EXISTS { (st)<--() }
  WITH st, COLLECT { MATCH (st)-[:SUBJECT|PREDICATE|OBJECT]->(r:Resource) RETURN r.uri } AS named
  DETACH DELETE st
  RETURN count(*) AS statements, reduce(all = [], uris IN collect(named) | all + uris) AS named
}
CALL (named) {
  UNWIND $resources + named AS uri
  WITH DISTINCT uri
  MATCH (r:Resource {workspace: $workspace, collection: $collection, uri: uri})
  WHERE NOT EXISTS { (r)--() } AND NOT r:Source AND NOT r:Explain AND NOT r:Content
  DELETE r
  RETURN count(*) AS resources
}
RETURN statements, resources
