// Purpose: open the journal of one import (state running); every batch of the import checks it and beats its heartbeat.
// Params: $workspace, $collection, $import_id, $digest, $source, $host, $pid
// Returns: id STRING
CREATE (j:Tgneo:TgImport {workspace: $workspace, collection: $collection, id: $import_id, digest: $digest, source: $source,
                  state: 'running', started: datetime(), heartbeat: datetime(), batches: 0, host: $host, pid: $pid})
RETURN j.id AS id
