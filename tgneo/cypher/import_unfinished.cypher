// Purpose: the imports of a collection that never finished (running, committed but not released, or half rolled back), with their owner and last heartbeat, for recovery.
// Params: $workspace, $collection
// Returns: id STRING, state STRING, heartbeat DATETIME, host STRING, pid INTEGER, seconds_since INTEGER (since the last heartbeat)
MATCH (j:TgImport {workspace: $workspace, collection: $collection})
WHERE j.state IN ['running', 'committed', 'rolling_back']
RETURN j.id AS id, j.state AS state, j.heartbeat AS heartbeat, j.host AS host, j.pid AS pid,
       duration.inSeconds(j.heartbeat, datetime()).seconds AS seconds_since
ORDER BY j.started
