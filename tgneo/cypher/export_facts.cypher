// Purpose: the native knowledge graph of a collection, streamed for RDF export one node at a time: each resource that holds facts, with its fact properties ([key, value or values, tags or null]: name is rdfs:label, the rest named by the collection's namespace table) and its outgoing facts (relationships carrying their predicate's iri), so each row decompiles on its own.
// Params: $workspace, $collection, $reserved (property keys that hold structure, not facts)
// Returns: uri STRING, kind STRING, props LIST<LIST>, rels LIST<LIST> ([predicate IRI, object kind, object uri])
MATCH (n:TgResource {workspace: $workspace, collection: $collection})
WHERE n.uri IS NOT NULL
WITH n, [k IN keys(n) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved | [k, n[k], n['_' + k]]] AS props,
     [(n)-[r]->(m:TgResource) WHERE r.iri IS NOT NULL | [r.iri, m.kind, m.uri]] AS rels
WHERE size(props) > 0 OR size(rels) > 0
RETURN n.uri AS uri, n.kind AS kind, props, rels
