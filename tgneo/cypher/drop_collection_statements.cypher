// Purpose: delete up to $batch statement nodes of one collection (reified edges, with their SUBJECT/OBJECT and incoming relationships) in one transaction; run until it returns 0, before the collection's resources, so that no transaction touches a dense entity node's thousands of relationships at once.
// Params: $workspace, $collection, $batch
// Returns: deleted INTEGER
MATCH (st:TgStatement {workspace: $workspace, collection: $collection})
WHERE st.id IS NOT NULL
WITH st LIMIT $batch
DETACH DELETE st
RETURN count(*) AS deleted
