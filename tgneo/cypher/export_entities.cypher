// Purpose: every provenance entity of a collection (or only those listed in $uris) with its labels, properties and mapped outgoing relationships, for RDF export.
// Params: $workspace, $collection, $uris
// Returns: uri STRING, kind STRING, graph STRING, labels LIST<STRING>, props MAP, links LIST<LIST>, statement_links LIST<LIST>
MATCH (n:Resource {workspace: $workspace, collection: $collection})
WHERE (n:Explain OR n:Source) AND ($uris IS NULL OR n.uri IN $uris)
RETURN n.uri AS uri, n.kind AS kind, n.graph AS graph, labels(n) AS labels, properties(n) AS props,
       [(n)-[r]->(m:Resource) | [type(r), m.kind, m.uri]] AS links,
       [(n)-[r]->(s:Statement) | [type(r), s.id]] AS statement_links
ORDER BY uri
