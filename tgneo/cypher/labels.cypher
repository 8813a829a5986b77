// Purpose: the name (rdfs:label in the default graph: the node's name property) of each IRI given (knowledge-graph entities and predicates), the smallest when it has several; IRIs without one are left out.
// Params: $workspace, $collection, $uris
// Returns: uri STRING, label STRING
UNWIND $uris AS uri
MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: uri})
WHERE n.name IS NOT NULL
RETURN uri, CASE WHEN valueType(n.name) STARTS WITH 'LIST'
                 THEN toString(reduce(m = head(n.name), x IN n.name | CASE WHEN x < m THEN x ELSE m END))
                 ELSE toString(n.name) END AS label
