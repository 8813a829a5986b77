// Purpose: every provenance entity of a collection (or only those listed in $uris), streamed for RDF export: labels, properties, mapped outgoing relationships (a relationship to a statement with its own properties: a containment's evidence), and every statement those relationships reach with the statements nested in them, so each row decompiles on its own. Knowledge-graph facts (relationships carrying an iri) are export_facts'.
// Params: $workspace, $collection, $uris
// Returns: uri STRING, kind STRING, graph STRING, labels LIST<STRING>, props MAP, links LIST<LIST>, statement_links LIST<LIST> ([type, statement id, relationship properties]), statements LIST<MAP>
MATCH (n:TgResource {workspace: $workspace, collection: $collection})
WHERE (n:TgExplain OR n:TgSource) AND ($uris IS NULL OR n.uri IN $uris)
RETURN n.uri AS uri, n.kind AS kind, n.graph AS graph, labels(n) AS labels, properties(n) AS props,
       [(n)-[r]->(m:TgResource) WHERE r.iri IS NULL | [type(r), m.kind, m.uri]] AS links,
       [(n)-[r]->(s:TgStatement) | [type(r), s.id, properties(r)]] AS statement_links,
       COLLECT {
         MATCH (n)-->(:TgStatement)-[:SUBJECT|OBJECT]->{0,100}(st:TgStatement)
         RETURN DISTINCT st {.id, .s, .s_kind, .p, .o, .o_kind, .o_datatype, .o_lang}
       } AS statements
ORDER BY graph, uri
