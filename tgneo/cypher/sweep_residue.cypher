// Purpose: delete what nothing keeps alive any more among the given statements and resources, in one transaction: a statement asserted in no graph that nothing points at (a triple retracted from the knowledge graph that only a pruned trace kept, quoted), then each given resource, and each resource such a statement named, that is left with no relationship and no fact at all and is no source (document, chunk, agent), explainability node or stored text: what forget_document.cypher would have deleted had no trace held it. Knowledge-graph statements (asserted somewhere) and anything still referenced are never touched. Each node is locked (a throwaway property write) and checked again under the lock, so concurrent sweeps, and a writer that takes the node up meanwhile, are ordered: a node another sweep deleted first is not counted twice, one given a new reference stays.
// Params: $workspace, $collection, $statements (statement ids, sorted: sweeps lock in one order), $resources (resource uris, sorted), $reserved (property keys that hold structure, not facts)
// Returns: statements INTEGER, resources INTEGER (deleted)
CALL () {
  UNWIND $statements AS id
  MATCH (st:TgStatement {workspace: $workspace, collection: $collection, id: id})
  WHERE size(coalesce(st.asserted_in, [])) = 0 AND NOT EXISTS { (st)<--() }
  SET st.tg_sweeping = true
  REMOVE st.tg_sweeping
  WITH st
  WHERE st.id IS NOT NULL AND size(coalesce(st.asserted_in, [])) = 0 AND NOT EXISTS { (st)<--() }
  WITH st, COLLECT { MATCH (st)-[:SUBJECT|OBJECT]->(r:TgResource) RETURN r.uri } AS named
  DETACH DELETE st
  RETURN count(*) AS statements, reduce(all = [], uris IN collect(named) | all + uris) AS named
}
CALL (named) {
  UNWIND $resources + named AS uri
  WITH DISTINCT uri
  ORDER BY uri
  MATCH (r:TgResource {workspace: $workspace, collection: $collection, uri: uri})
  WHERE NOT EXISTS { (r)--() } AND NOT r:TgSource AND NOT r:TgExplain AND NOT r:TgContent
    AND none(k IN keys(r) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved)
  SET r.tg_sweeping = true
  REMOVE r.tg_sweeping
  WITH r
  WHERE r.uri IS NOT NULL AND NOT EXISTS { (r)--() }
    AND none(k IN keys(r) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved)
  DELETE r
  RETURN count(*) AS resources
}
RETURN statements, resources
