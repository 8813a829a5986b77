// Purpose: Document RAG over a graph profile when no index finds their chunks (no vector index of theirs the embedder can ask, no side index, no full-text index): a full scan of at most $scan nodes of their chunk label, for each concept the $per_concept whose text contains most of its $words, deduplicated, each with the share of the question's words it contains for reranking, scored like a full-text list. Read only.
// Params: $label, $key, $text, $concepts (LIST<MAP> text, words LIST<STRING> lower-case), $question_words, $per_concept, $scan
// Returns: element STRING, key ANY, text STRING, score FLOAT, rerank FLOAT
CALL () {
  MATCH (n:$($label))
  WHERE n[$text] IS NOT NULL
  RETURN n, toLower(toString(n[$text])) AS low
  LIMIT $scan
}
UNWIND $concepts AS c
WITH c, n, low, size([w IN c.words WHERE low CONTAINS w]) AS hits
WHERE hits > 0
WITH c, n, low, toFloat(hits) / size(c.words) AS score
ORDER BY score DESC, elementId(n)
WITH c, collect([n, low, score])[..$per_concept] AS best
UNWIND best AS b
WITH b[0] AS n, b[1] AS low, max(b[2]) AS score
RETURN elementId(n) AS element, n[$key] AS key, toString(n[$text]) AS text, score,
       CASE WHEN size($question_words) = 0 THEN 0.0
            ELSE toFloat(size([w IN $question_words WHERE low CONTAINS w])) / size($question_words) END AS rerank
ORDER BY score DESC, element
