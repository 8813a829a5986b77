// Purpose: candidates for a triple pattern with a predicate and no subject: provenance entities in $graphs holding it (as the property $property, optionally equal to $value as text; as the relationship $rel; or any rdf:type when $typed), and asserted statements of the predicate (optionally with the object text $value); each list ordered and cut at $limit.
// Params: $workspace, $collection, $predicate, $property, $rel, $typed, $value, $graphs, $limit
// Returns: uris LIST<STRING>, ids LIST<STRING>
CALL () {
  WITH $graphs AS graphs WHERE size(graphs) > 0 AND ($property IS NOT NULL OR $rel IS NOT NULL OR $typed)
  MATCH (n:Resource {workspace: $workspace, collection: $collection})
  WHERE n.graph IN graphs
    AND (($property IS NOT NULL AND n[$property] IS NOT NULL
          AND ($value IS NULL OR CASE WHEN valueType(n[$property]) STARTS WITH 'LIST'
                                      THEN any(x IN n[$property] WHERE toString(x) = $value)
                                      ELSE toString(n[$property]) = $value END))
      OR ($rel IS NOT NULL AND EXISTS { (n)-[r]->() WHERE type(r) = $rel })
      OR $typed)
  WITH n.uri AS uri
  ORDER BY uri
  LIMIT $limit
  RETURN collect(uri) AS uris
}
CALL () {
  MATCH (st:Statement {workspace: $workspace, collection: $collection, p: $predicate})
  WHERE ($value IS NULL OR st.o = $value) AND size(coalesce(st.asserted_in, [])) > 0
  WITH st.id AS id
  ORDER BY id
  LIMIT $limit
  RETURN collect(id) AS ids
}
RETURN uris, ids
