// Purpose: the spans kept of one OpenTelemetry span tree (a claimed one, to record it), and the trace it was recorded as before, if any.
// Params: $workspace, $collection, $trace_id
// Returns: spans LIST<STRING>, recorded STRING
MATCH (n:TgSpanTree {workspace: $workspace, collection: $collection, trace_id: $trace_id})
RETURN n.spans AS spans, n.recorded AS recorded
