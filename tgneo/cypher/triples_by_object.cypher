// Purpose: candidates for a triple pattern whose object is an IRI (or blank node): provenance entities in $graphs linking to it (by the relationship $rel, or any), reified statements asserted somewhere whose object it is (of the predicate $predicate, or any), and, with $facts, the native facts pointing at it (relationships carrying an iri, of the predicate $predicate or any); each list ordered and cut at $limit.
// Params: $workspace, $collection, $key, $rel, $graphs, $predicate, $facts, $limit
// Returns: uris LIST<STRING>, ids LIST<STRING>, facts LIST<LIST> ([subject uri, subject kind, predicate])
CALL () {
  WITH $graphs AS graphs WHERE size(graphs) > 0
  MATCH (:TgResource {workspace: $workspace, collection: $collection, uri: $key})<-[r]-(n:TgResource)
  WHERE ($rel IS NULL OR type(r) = $rel) AND r.iri IS NULL AND n.graph IN graphs
  WITH DISTINCT n.uri AS uri
  ORDER BY uri
  LIMIT $limit
  RETURN collect(uri) AS uris
}
CALL () {
  MATCH (:TgResource {workspace: $workspace, collection: $collection, uri: $key})<-[:OBJECT]-(st:TgStatement)
  WHERE size(coalesce(st.asserted_in, [])) > 0 AND ($predicate IS NULL OR st.p = $predicate)
  WITH st.id AS id
  ORDER BY id
  LIMIT $limit
  RETURN collect(id) AS ids
}
CALL () {
  WITH $facts AS wanted WHERE wanted
  MATCH (:TgResource {workspace: $workspace, collection: $collection, uri: $key})<-[r]-(n:TgResource)
  WHERE r.iri IS NOT NULL AND ($predicate IS NULL OR r.iri = $predicate)
  WITH n, r
  ORDER BY n.uri, r.iri
  LIMIT $limit
  RETURN collect([n.uri, n.kind, r.iri]) AS facts
}
RETURN uris, ids, facts
