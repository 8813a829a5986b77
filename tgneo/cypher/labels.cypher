// Purpose: the rdfs:label of each IRI given (knowledge-graph entities and predicates), as stored in the default graph; IRIs without one are left out.
// Params: $workspace, $collection, $uris, $label_predicate
// Returns: uri STRING, label STRING
UNWIND $uris AS uri
CALL (uri) {
  MATCH (l:Statement {workspace: $workspace, collection: $collection, s: uri, p: $label_predicate})
  RETURN l.o AS label
  ORDER BY label
  LIMIT 1
}
RETURN uri, label
