// Purpose: the stored retention policies, of one workspace and collection or (with nulls) of every one — what a scheduled prune applies.
// Params: $workspace (or null: all), $collection (or null: all)
// Returns: workspace STRING, collection STRING, max_age_seconds INTEGER, max_traces INTEGER, set_at DATETIME, set_by STRING
MATCH (p:TgRetentionPolicy)
WHERE ($workspace IS NULL OR p.workspace = $workspace) AND ($collection IS NULL OR p.collection = $collection)
RETURN p.workspace AS workspace, p.collection AS collection, p.max_age_seconds AS max_age_seconds,
       p.max_traces AS max_traces, p.set_at AS set_at, p.set_by AS set_by
ORDER BY workspace, collection
