// Purpose: GraphRAG over a graph profile, step 1 when no index finds their entities (no vector index of theirs the embedder can ask, no side index, no full-text index): a full scan of at most $scan nodes of their entity label (never one carrying a label of $exclude), for each concept the $per_concept whose name contains most of its $words, the closest names first, scored like a full-text list for tgneo.store.kg.fuse_seeds. Read only.
// Params: $label, $key, $name, $exclude, $concepts (LIST<MAP> text, words LIST<STRING> lower-case), $per_concept, $scan
// Returns: concept STRING, element STRING, key ANY, name ANY, text_score FLOAT, vector_score FLOAT (always null)
CALL () {
  MATCH (n:$($label))
  WHERE n[$name] IS NOT NULL AND none(l IN labels(n) WHERE l IN $exclude)
  RETURN n, toLower(toString(n[$name])) AS low
  LIMIT $scan
}
UNWIND $concepts AS c
WITH c, n, low, size([w IN c.words WHERE low CONTAINS w]) AS hits
WHERE hits > 0
WITH c, n, toFloat(hits) / size(c.words) AS coverage,
     toFloat(size(c.text)) / CASE WHEN size(low) > size(c.text) THEN size(low) ELSE size(c.text) END AS tightness
WITH c, n, coverage * (0.5 + 0.5 * tightness) AS score
ORDER BY score DESC, elementId(n)
WITH c, collect([n, score])[..$per_concept] AS best
UNWIND best AS b
WITH c, b[0] AS n, b[1] AS score
RETURN c.text AS concept, elementId(n) AS element, n[$key] AS key, n[$name] AS name, score AS text_score,
       null AS vector_score
ORDER BY concept, element
