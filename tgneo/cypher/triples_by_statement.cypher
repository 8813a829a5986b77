// Purpose: candidates for a triple pattern whose object is a quoted triple: provenance entities in $graphs pointing at one of the statements $ids (tg:edge, tg:contains; by the relationship $rel, or any), and asserted statements nesting one of them as their object.
// Params: $workspace, $collection, $ids, $rel, $graphs, $predicate, $limit
// Returns: uris LIST<STRING>, ids LIST<STRING>
CALL () {
  WITH $graphs AS graphs WHERE size(graphs) > 0
  MATCH (st:TgStatement {workspace: $workspace, collection: $collection})<-[r]-(n:TgResource)
  WHERE st.id IN $ids AND ($rel IS NULL OR type(r) = $rel) AND n.graph IN graphs
  WITH DISTINCT n.uri AS uri
  ORDER BY uri
  LIMIT $limit
  RETURN collect(uri) AS uris
}
CALL () {
  MATCH (st:TgStatement {workspace: $workspace, collection: $collection})<-[:OBJECT]-(outer:TgStatement)
  WHERE st.id IN $ids AND size(coalesce(outer.asserted_in, [])) > 0
    AND ($predicate IS NULL OR outer.p = $predicate)
  WITH DISTINCT outer.id AS id
  ORDER BY id
  LIMIT $limit
  RETURN collect(id) AS ids
}
RETURN uris, ids
