// Purpose: migration to graph model 2, preflight: the imports of the previous model that never finished (running, committed but not released, or half rolled back); the migration refuses to move them, since only the version that started them can finish them.
// Params: none
// Returns: workspace STRING, collection STRING, id STRING, state STRING
MATCH (j:Import)
WHERE j.workspace IS NOT NULL AND j.state IN ['running', 'committed', 'rolling_back']
RETURN j.workspace AS workspace, j.collection AS collection, j.id AS id, j.state AS state
ORDER BY workspace, collection, id
