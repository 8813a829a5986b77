// Purpose: candidates for a triple pattern (?s rdf:type <class>): the provenance entities in $graphs carrying the class's label, ordered by URI and cut at $limit.
// Params: $workspace, $collection, $label, $graphs, $limit
// Returns: uris LIST<STRING>
CALL () {
  WITH $graphs AS graphs WHERE size(graphs) > 0
  MATCH (n:$($label) {workspace: $workspace, collection: $collection})
  WHERE n.graph IN graphs
  WITH n.uri AS uri
  ORDER BY uri
  LIMIT $limit
  RETURN collect(uri) AS uris
}
RETURN uris
