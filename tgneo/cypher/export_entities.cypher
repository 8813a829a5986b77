// Purpose: every provenance entity of a collection (or only those listed in $uris), streamed for RDF export: labels, properties, mapped outgoing relationships, and every statement those relationships reach with the statements nested in them, so each row decompiles on its own.
// Params: $workspace, $collection, $uris
// Returns: uri STRING, kind STRING, graph STRING, labels LIST<STRING>, props MAP, links LIST<LIST>, statement_links LIST<LIST>, statements LIST<MAP>
MATCH (n:Resource {workspace: $workspace, collection: $collection})
WHERE (n:Explain OR n:Source) AND ($uris IS NULL OR n.uri IN $uris)
RETURN n.uri AS uri, n.kind AS kind, n.graph AS graph, labels(n) AS labels, properties(n) AS props,
       [(n)-[r]->(m:Resource) | [type(r), m.kind, m.uri]] AS links,
       [(n)-[r]->(s:Statement) | [type(r), s.id]] AS statement_links,
       COLLECT {
         MATCH (n)-->(:Statement)-[:SUBJECT|OBJECT]->{0,100}(st:Statement)
         RETURN DISTINCT st {.id, .s, .s_kind, .p, .o, .o_kind, .o_datatype, .o_lang}
       } AS statements
ORDER BY graph, uri
