// Purpose: one page of everything a collection holds as triples (for a pattern without s, p and o, or one no index answers): provenance entities in $graphs after the URI $after_uri, and asserted statements after the id $after_id, each in key order, at most $limit.
// Params: $workspace, $collection, $graphs, $after_uri, $after_id, $limit
// Returns: uris LIST<STRING>, ids LIST<STRING>
CALL () {
  WITH $graphs AS graphs WHERE size(graphs) > 0
  MATCH (n:Resource {workspace: $workspace, collection: $collection})
  WHERE n.uri > $after_uri AND n.graph IN graphs
  WITH n.uri AS uri
  ORDER BY uri
  LIMIT $limit
  RETURN collect(uri) AS uris
}
CALL () {
  MATCH (st:Statement {workspace: $workspace, collection: $collection})
  WHERE st.id > $after_id AND size(coalesce(st.asserted_in, [])) > 0
  WITH st.id AS id
  ORDER BY id
  LIMIT $limit
  RETURN collect(id) AS ids
}
RETURN uris, ids
