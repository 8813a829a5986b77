// Purpose: the name (rdfs:label in the default graph: the node's name property, a list when it has several) of each IRI given (knowledge-graph entities and predicates); IRIs without one are left out.
// Params: $workspace, $collection, $uris
// Returns: uri STRING, name ANY (a value or a list)
UNWIND $uris AS uri
MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: uri})
WHERE n.name IS NOT NULL
RETURN uri, n.name AS name
