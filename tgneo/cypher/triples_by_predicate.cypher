// Purpose: candidates for a triple pattern with a predicate and no subject: provenance entities in $graphs holding it (as the property $property, optionally equal to $value as text; as the relationship $rel; or any rdf:type when $typed), reified statements of the predicate asserted somewhere (optionally with the object text $value), the native facts of it: relationships of the type $fact_type (between nodes of this collection), and the nodes holding the property $fact_key; each list ordered and cut at $limit.
// Params: $workspace, $collection, $predicate, $property, $rel, $typed, $value, $graphs, $fact_type, $fact_key, $limit
// Returns: uris LIST<STRING>, ids LIST<STRING>, rels LIST<LIST> ([subject uri, subject kind, predicate, object kind, object uri]), keyed LIST<STRING> (uris of nodes holding $fact_key)
CALL () {
  WITH $graphs AS graphs WHERE size(graphs) > 0 AND ($property IS NOT NULL OR $rel IS NOT NULL OR $typed)
  MATCH (n:TgResource {workspace: $workspace, collection: $collection})
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
  MATCH (st:TgStatement {workspace: $workspace, collection: $collection, p: $predicate})
  WHERE ($value IS NULL OR st.o = $value) AND size(coalesce(st.asserted_in, [])) > 0
  WITH st.id AS id
  ORDER BY id
  LIMIT $limit
  RETURN collect(id) AS ids
}
CALL () {
  WITH $fact_type AS fact_type WHERE fact_type IS NOT NULL
  MATCH (a:TgResource)-[r:$(fact_type)]->(b:TgResource)
  WHERE r.workspace = $workspace AND r.collection = $collection AND r.iri = $predicate
  WITH a, r, b
  ORDER BY a.uri, b.uri
  LIMIT $limit
  RETURN collect([a.uri, a.kind, r.iri, b.kind, b.uri]) AS rels
}
CALL () {
  WITH $fact_key AS fact_key WHERE fact_key IS NOT NULL
  MATCH (n:TgResource {workspace: $workspace, collection: $collection})
  WHERE n.uri IS NOT NULL AND n[fact_key] IS NOT NULL
  WITH n.uri AS uri
  ORDER BY uri
  LIMIT $limit
  RETURN collect(uri) AS keyed
}
RETURN uris, ids, rels, keyed
