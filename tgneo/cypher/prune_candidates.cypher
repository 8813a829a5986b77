// Purpose: the trace roots a retention policy would delete, oldest first: questions not derived from another step, started before $before (when given) or beyond the newest $keep (when given), never a held one (tg_hold). Held traces still count towards $keep.
// Params: $workspace, $collection, $before, $keep, $limit
// Returns: uri STRING, startedAtTime DATETIME, steps INTEGER
MATCH (q:Question {workspace: $workspace, collection: $collection})
WHERE NOT EXISTS { (q)-[:WAS_DERIVED_FROM]->() }
WITH q ORDER BY q.startedAtTime DESC, q.uri ASC
WITH collect(q) AS roots
UNWIND range(0, size(roots) - 1) AS rank
WITH roots[rank] AS q, rank
WHERE q.tg_hold IS NULL
  AND (($before IS NOT NULL AND q.startedAtTime < $before) OR ($keep IS NOT NULL AND rank >= $keep))
WITH q ORDER BY q.startedAtTime ASC, q.uri ASC
LIMIT $limit
RETURN q.uri AS uri, q.startedAtTime AS startedAtTime,
       1 + COUNT { MATCH SHORTEST 1 (q)<-[:WAS_DERIVED_FROM]-+(s:TgExplain) RETURN s } AS steps
