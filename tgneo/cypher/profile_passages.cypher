// Purpose: what a graph profile's passages (chunks, or documents that are their own text) say and where they come from: each one's key, text and position, and its document (by $part_of, else by the chunk's $source property, else itself) with its name. Read only.
// Params: $elements (LIST<STRING> element ids), $key, $text, $order, $part_of, $document_label, $document_name, $source
// Returns: element STRING, labels LIST<STRING>, key ANY, text STRING, position ANY, document STRING, document_name ANY
UNWIND $elements AS pid
MATCH (p) WHERE elementId(p) = pid
CALL (p) {
  WITH p WHERE $part_of IS NOT NULL
  MATCH (p)-[:$($part_of)]-(d:$($document_label))
  RETURN elementId(d) AS document, d[$document_name] AS document_name
  ORDER BY document LIMIT 1
  UNION
  WITH p WHERE $part_of IS NULL AND $source IS NOT NULL AND p[$source] IS NOT NULL
  RETURN null AS document, p[$source] AS document_name
  UNION
  WITH p WHERE $part_of IS NULL AND ($source IS NULL OR p[$source] IS NULL)
  RETURN CASE WHEN $document_label IN labels(p) THEN elementId(p) END AS document,
         CASE WHEN $document_label IN labels(p) THEN p[$document_name] END AS document_name
}
RETURN pid AS element, labels(p) AS labels, p[$key] AS key, toString(p[$text]) AS text, p[$order] AS position, document, document_name
