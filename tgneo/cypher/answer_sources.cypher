// Purpose: where an answer's evidence comes from: for each row, a selected statement (every subgraph containing it — the one whose tg:sourceText is the row's evidence sentence marked cited) or a selected chunk, with the chunk, its page or section, and the document it was cut from; rows in the order given, the cited place of each first.
// Params: $workspace, $collection, $rows (LIST<MAP> key, statement, evidence, chunk)
// Returns: i INTEGER, key STRING, chunk STRING, section STRING, document STRING, title STRING, cited BOOLEAN
UNWIND range(0, size($rows) - 1) AS i
WITH i, $rows[i] AS row
CALL (row) {
  WITH row WHERE row.statement IS NOT NULL
  MATCH (:Statement {workspace: $workspace, collection: $collection, id: row.statement})<-[:CONTAINS]-(sg:Subgraph)
  MATCH (sg)-[:WAS_DERIVED_FROM]->(c:Chunk)
  RETURN c, coalesce(sg.sourceText = row.evidence, false) AS cited
  UNION
  WITH row WHERE row.chunk IS NOT NULL
  MATCH (c:Chunk {workspace: $workspace, collection: $collection, uri: row.chunk})
  RETURN c, true AS cited
}
OPTIONAL MATCH (c)-[:WAS_DERIVED_FROM]->(part:Resource)
WHERE part:Page OR part:Section
OPTIONAL MATCH (c)-[:WAS_DERIVED_FROM]->{1,4}(doc:Document)
WITH i, row, c, cited, part, doc
ORDER BY i, cited DESC, c.uri, doc.uri
RETURN i, row.key AS key, c.uri AS chunk, part.label AS section, doc.uri AS document, doc.title AS title, cited
