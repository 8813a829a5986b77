// Purpose: where an answer's evidence comes from: for each row, a selected statement (every subgraph containing it — the one whose evidence sentence, tg:sourceText on its CONTAINS relationship, is the row's evidence marked cited) or a selected chunk, with the chunk, its page or section, and the document it was cut from; rows in the order given, the cited place of each first.
// Params: $workspace, $collection, $rows (LIST<MAP> key, statement, evidence, chunk)
// Returns: i INTEGER, key STRING, chunk STRING, section STRING, document STRING, title STRING, cited BOOLEAN
UNWIND range(0, size($rows) - 1) AS i
WITH i, $rows[i] AS row
CALL (row) {
  WITH row WHERE row.statement IS NOT NULL
  MATCH (:TgStatement {workspace: $workspace, collection: $collection, id: row.statement})<-[contains:CONTAINS]-(sg:TgSubgraph)
  MATCH (sg)-[:WAS_DERIVED_FROM]->(c:TgChunk)
  RETURN c, coalesce(coalesce(contains.sourceText, sg.sourceText) = row.evidence, false) AS cited
  UNION
  WITH row WHERE row.chunk IS NOT NULL
  MATCH (c:TgChunk {workspace: $workspace, collection: $collection, uri: row.chunk})
  RETURN c, true AS cited
}
OPTIONAL MATCH (c)-[:WAS_DERIVED_FROM]->(part:TgResource)
WHERE part:TgPage OR part:TgSection
OPTIONAL MATCH (c)-[:WAS_DERIVED_FROM]->{1,4}(doc:TgDocument)
WITH i, row, c, cited, part, doc
ORDER BY i, cited DESC, c.uri, doc.uri
RETURN i, row.key AS key, c.uri AS chunk, part.label AS section, doc.uri AS document, doc.title AS title, cited
