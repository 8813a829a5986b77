// Purpose: what POST /v1/traces has kept in a workspace and collection: span trees, spans, and trees recorded as traces (the serve bench's otlp_lost_spans).
// Params: $workspace, $collection
// Returns: trees INTEGER, spans INTEGER, recorded INTEGER
MATCH (n:TgSpanTree {workspace: $workspace, collection: $collection})
RETURN count(n) AS trees, coalesce(sum(size(n.span_ids)), 0) AS spans, count(n.recorded) AS recorded
