// Purpose: citations: the source documents of knowledge-graph statements, through the subgraphs that contain them (subgraph → chunk → page or section → document), each document once, in the order of the statements given.
// Params: $workspace, $collection, $ids
// Returns: uri STRING, title STRING
UNWIND range(0, size($ids) - 1) AS i
MATCH (:Statement {workspace: $workspace, collection: $collection, id: $ids[i]})<-[:CONTAINS]-(sg:Subgraph)
MATCH (sg)-[:WAS_DERIVED_FROM]->{1,6}(doc:Document)
WITH doc, min(i) AS first
ORDER BY first, doc.uri
RETURN doc.uri AS uri, doc.title AS title
