// Purpose: (Browser) token and latency totals by model across a collection's steps.
// Params: $workspace, $collection
// Returns: model STRING, steps INTEGER, inTokens INTEGER, outTokens INTEGER, llmMs INTEGER
MATCH (s:TgExplain {workspace: $workspace, collection: $collection})
WHERE s.llmModel IS NOT NULL
RETURN s.llmModel AS model, count(s) AS steps,
       sum(coalesce(s.inToken, 0)) AS inTokens, sum(coalesce(s.outToken, 0)) AS outTokens,
       sum(coalesce(s.llmDurationMs, 0)) AS llmMs
ORDER BY inTokens + outTokens DESC, model
