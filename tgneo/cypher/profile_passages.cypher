// Purpose: what a graph profile's passages (chunks, or documents that are their own text) say and where they come from: each one's key, text and position, and its document (by $part_of; else the document holding the chunk's $source value under $source, a naming property or the key; else itself), with the first of $document_names it holds, its key and the start of its text (for a title when it holds no name); with no such document, the chunk's $source value. Read only.
// Params: $elements (LIST<STRING> element ids), $key, $text, $order, $part_of, $document_label, $document_names (LIST<STRING>), $document_key, $document_text, $source
// Returns: element STRING, labels LIST<STRING>, key ANY, text STRING, position ANY, document STRING, named_by STRING, document_name ANY, document_key ANY, document_text STRING, source ANY
UNWIND $elements AS pid
MATCH (p) WHERE elementId(p) = pid
CALL (p) {
  WITH p WHERE $part_of IS NOT NULL
  MATCH (p)-[:$($part_of)]-(d:$($document_label))
  RETURN d, null AS source
  ORDER BY elementId(d) LIMIT 1
  UNION
  WITH p WHERE $part_of IS NULL AND $source IS NOT NULL AND p[$source] IS NOT NULL
  OPTIONAL MATCH (d:$($document_label))
  WHERE d[$source] = p[$source] OR any(k IN $document_names WHERE d[k] = p[$source])
     OR ($document_key IS NOT NULL AND d[$document_key] = p[$source])
  WITH d, p[$source] AS source
  ORDER BY elementId(d) LIMIT 1
  RETURN d, source
  UNION
  WITH p WHERE $part_of IS NULL AND ($source IS NULL OR p[$source] IS NULL)
  RETURN CASE WHEN $document_label IN labels(p) THEN p END AS d, null AS source
}
WITH pid, p, d, source, head([k IN $document_names WHERE d[k] IS NOT NULL]) AS named_by
RETURN pid AS element, labels(p) AS labels, p[$key] AS key, toString(p[$text]) AS text, p[$order] AS position,
       elementId(d) AS document, named_by, d[named_by] AS document_name, d[$document_key] AS document_key,
       left(toString(d[$document_text]), 200) AS document_text, source
