// Purpose: (Browser) the knowledge graph of a collection as Neo4j users draw theirs: entities joined by typed relationships (each fact's predicate IRI in its iri property, its literal facts as the entity's properties, rdfs:label as its name); the best-connected entities' facts first.
// Params: $workspace, $collection, $limit
// Returns: fact PATH
MATCH (a:TgResource {workspace: $workspace, collection: $collection})-[r]->(b:TgResource)
WHERE a.uri IS NOT NULL AND r.iri IS NOT NULL
WITH a, r, b, COUNT { (a)-[f]-() WHERE f.iri IS NOT NULL } AS degree
ORDER BY degree DESC, a.uri, r.iri, b.uri
LIMIT $limit
MATCH fact = (a)-[r]->(b)
RETURN fact
