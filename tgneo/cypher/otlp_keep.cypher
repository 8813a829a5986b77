// Purpose: keep the spans of OpenTelemetry span trees as they arrive at POST /v1/traces (one TgSpanTree per trace id, unique by constraint; a span already kept is skipped), and claim for the caller each tree that is whole (its root and every span's parent kept) and holds spans not yet recorded. The write lock the first SET takes makes concurrent batches of one tree add up, and lets one caller alone claim it; a claim older than $claim_seconds (its caller died) may be taken over.
// Params: $workspace, $collection, $trees (LIST<MAP>: trace_id, span_ids, parents, spans), $claim, $claim_seconds
// Returns: trace_id STRING, claimed BOOLEAN, kept INTEGER
UNWIND $trees AS t
MERGE (n:Tgneo:TgSpanTree {workspace: $workspace, collection: $collection, trace_id: t.trace_id})
  ON CREATE SET n.span_ids = [], n.parents = [], n.spans = [], n.recorded_spans = 0
SET n.received = datetime()
WITH n, t, [i IN range(0, size(t.span_ids) - 1) WHERE NOT t.span_ids[i] IN n.span_ids] AS fresh
SET n.span_ids = n.span_ids + [i IN fresh | t.span_ids[i]],
    n.parents = n.parents + [i IN fresh | t.parents[i]],
    n.spans = n.spans + [i IN fresh | t.spans[i]]
WITH n, '' IN n.parents AND all(p IN n.parents WHERE p = '' OR p IN n.span_ids) AS whole
WITH n, whole AND size(n.span_ids) > n.recorded_spans
        AND (n.claimed IS NULL OR n.claimed_at < datetime() - duration({seconds: $claim_seconds})) AS claim
SET n.claimed = CASE WHEN claim THEN $claim ELSE n.claimed END,
    n.claimed_at = CASE WHEN claim THEN datetime() ELSE n.claimed_at END,
    n.claimed_spans = CASE WHEN claim THEN size(n.span_ids) ELSE n.claimed_spans END
RETURN n.trace_id AS trace_id, claim AS claimed, size(n.span_ids) AS kept
