// Purpose: end a claim on an OpenTelemetry span tree: with $recorded (the trace's URI) the spans claimed are recorded; with $recorded null (recording failed) the tree waits for the next batch or retry to claim it again.
// Params: $workspace, $collection, $trace_id, $claim, $recorded (STRING or null)
// Returns: released INTEGER
MATCH (n:TgSpanTree {workspace: $workspace, collection: $collection, trace_id: $trace_id})
WHERE n.claimed = $claim
SET n.recorded = coalesce($recorded, n.recorded),
    n.recorded_spans = CASE WHEN $recorded IS NULL THEN n.recorded_spans ELSE n.claimed_spans END,
    n.claimed = null, n.claimed_at = null
RETURN count(n) AS released
