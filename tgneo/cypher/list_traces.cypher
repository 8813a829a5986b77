// Purpose: list trace roots (questions not derived from another step), newest first, with keyset pagination.
// Params: $workspace, $collection, $type, $since, $after_time, $after_uri, $limit, $stale (true: only stale traces)
// Returns: uri STRING, labels LIST<STRING>, query STRING, startedAtTime DATETIME, steps INTEGER (the root and every step derived from it, at any depth), stale_at DATETIME (the latest document change that made it stale, or null), held BOOLEAN
MATCH (q:Question {workspace: $workspace, collection: $collection})
WHERE ($type IS NULL OR $type IN labels(q))
  AND NOT EXISTS { (q)-[:WAS_DERIVED_FROM]->() }
  AND ($since IS NULL OR q.startedAtTime >= $since)
  AND (NOT $stale OR q.tg_stale_at IS NOT NULL)
  AND ($after_time IS NULL OR q.startedAtTime < $after_time
       OR (q.startedAtTime = $after_time AND q.uri > $after_uri))
WITH q
ORDER BY q.startedAtTime DESC, q.uri ASC
LIMIT $limit
RETURN q.uri AS uri, labels(q) AS labels, q.query AS query, q.startedAtTime AS startedAtTime,
       1 + COUNT { MATCH SHORTEST 1 (q)<-[:WAS_DERIVED_FROM]-+(s:TgExplain) RETURN s } AS steps,
       q.tg_stale_at AS stale_at, q.tg_hold IS NOT NULL AS held
