// Purpose: remove the journal of an import that is done (committed and released) or rolled back, so a finished import leaves nothing but its data.
// Params: $workspace, $collection, $import_id
// Returns: nothing
MATCH (j:TgImport {workspace: $workspace, collection: $collection, id: $import_id})
WHERE j.state IN ['done', 'rolled_back']
DELETE j
