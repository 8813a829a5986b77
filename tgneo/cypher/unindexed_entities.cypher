// Purpose: knowledge-graph entities of a collection with a name but no embedding yet (e.g. after importing a TrustGraph knowledge core): nodes named by an rdfs:label in the default graph (their name property) that hold another fact, as a typed relationship in either direction or a property value; with the smallest of their names.
// Params: $workspace, $collection, $reserved (property keys that hold structure, not facts), $limit
// Returns: uri STRING, name STRING
MATCH (n:TgResource {workspace: $workspace, collection: $collection})
// n.uri IS NOT NULL lets the planner seek the (workspace, collection, uri) index instead of scanning every TgResource
WHERE n.uri IS NOT NULL AND n.embeddedWith IS NULL AND n.name IS NOT NULL AND NOT n:TgSource AND NOT n:TgExplain
  AND (EXISTS { (n)-[f]-() WHERE f.iri IS NOT NULL }
       OR any(k IN keys(n) WHERE k <> 'name' AND NOT k STARTS WITH '_' AND NOT k IN $reserved))
WITH n, CASE WHEN valueType(n.name) STARTS WITH 'LIST' THEN n.name ELSE [n.name] END AS names
RETURN n.uri AS uri, toString(reduce(m = head(names), l IN names | CASE WHEN l < m THEN l ELSE m END)) AS name
ORDER BY uri
LIMIT $limit
