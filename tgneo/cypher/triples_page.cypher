// Purpose: one page of everything a collection holds as triples (for a pattern without s, p and o, or one no index answers): resources after the URI $after_uri (provenance entities, and the nodes of the native knowledge graph), and reified statements asserted somewhere after the id $after_id, each in key order, at most $limit.
// Params: $workspace, $collection, $after_uri, $after_id, $limit
// Returns: uris LIST<STRING>, ids LIST<STRING>
CALL () {
  MATCH (n:TgResource {workspace: $workspace, collection: $collection})
  WHERE n.uri > $after_uri
  WITH n.uri AS uri
  ORDER BY uri
  LIMIT $limit
  RETURN collect(uri) AS uris
}
CALL () {
  MATCH (st:TgStatement {workspace: $workspace, collection: $collection})
  WHERE st.id > $after_id AND size(coalesce(st.asserted_in, [])) > 0
  WITH st.id AS id
  ORDER BY id
  LIMIT $limit
  RETURN collect(id) AS ids
}
RETURN uris, ids
