// Purpose: move an import's journal from one state to the next (running -> committed | rolling_back, committed -> done, rolling_back -> rolled_back); the journal's lock orders this against the import's own batches.
// Params: $workspace, $collection, $import_id, $from, $to
// Returns: before STRING (the state found; the move happened only when it is one of $from)
MATCH (j:TgImport {workspace: $workspace, collection: $collection, id: $import_id})
WITH j, j.state AS before
CALL (j, before) {
  WITH j, before WHERE before IN $from
  SET j.state = $to, j.finished = CASE WHEN $to IN ['done', 'rolled_back'] THEN datetime() ELSE j.finished END
}
RETURN before
