// Purpose: record, once, that a fresh database holds the current graph model (install_schema runs it; an existing record is left as it is).
// Params: $model
// Returns: model INTEGER
MERGE (m:Tgneo:TgStore {key: 'tgneo'})
ON CREATE SET m.model = $model, m.updatedAt = datetime()
RETURN m.model AS model
