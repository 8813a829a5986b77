// Purpose: knowledge-graph entities of a collection that have no name and embedding yet (e.g. after importing a TrustGraph knowledge core): resources named by an rdfs:label in the default graph and the subject or object of another statement there; the name is the smallest label.
// Params: $workspace, $collection, $label_predicate, $limit
// Returns: uri STRING, name STRING
MATCH (n:Resource {workspace: $workspace, collection: $collection})
// n.uri IS NOT NULL lets the planner seek the (workspace, collection, uri) index instead of scanning every Resource
WHERE n.uri IS NOT NULL AND n.embeddedWith IS NULL AND NOT n:Source AND NOT n:Explain
WITH n, COLLECT {
  MATCH (n)<-[:SUBJECT]-(l:Statement)
  WHERE l.p = $label_predicate AND l.o_kind = 'literal' AND '' IN l.asserted_in
  RETURN l.o
} AS labels
WHERE size(labels) > 0
  AND EXISTS { MATCH (n)<-[:SUBJECT|OBJECT]-(st:Statement) WHERE st.p <> $label_predicate AND '' IN st.asserted_in }
RETURN n.uri AS uri, reduce(m = head(labels), l IN labels | CASE WHEN l < m THEN l ELSE m END) AS name
ORDER BY uri
LIMIT $limit
