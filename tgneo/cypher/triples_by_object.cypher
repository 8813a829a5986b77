// Purpose: candidates for a triple pattern whose object is an IRI (or blank node): provenance entities in $graphs linking to it (by the relationship $rel, or any), and asserted statements whose object it is (of the predicate $predicate, or any); each list ordered and cut at $limit.
// Params: $workspace, $collection, $key, $rel, $graphs, $predicate, $limit
// Returns: uris LIST<STRING>, ids LIST<STRING>
CALL () {
  WITH $graphs AS graphs WHERE size(graphs) > 0
  MATCH (:Resource {workspace: $workspace, collection: $collection, uri: $key})<-[r]-(n:Resource)
  WHERE ($rel IS NULL OR type(r) = $rel) AND n.graph IN graphs
  WITH DISTINCT n.uri AS uri
  ORDER BY uri
  LIMIT $limit
  RETURN collect(uri) AS uris
}
CALL () {
  MATCH (:Resource {workspace: $workspace, collection: $collection, uri: $key})<-[:OBJECT]-(st:Statement)
  WHERE size(coalesce(st.asserted_in, [])) > 0 AND ($predicate IS NULL OR st.p = $predicate)
  WITH st.id AS id
  ORDER BY id
  LIMIT $limit
  RETURN collect(id) AS ids
}
RETURN uris, ids
