// Purpose: which graph model the database holds, as the one :TgStore node records it (the model number, and the migration under way, if any).
// Params: none
// Returns: model INTEGER, migration STRING
OPTIONAL MATCH (m:TgStore {key: 'tgneo'})
RETURN m.model AS model, m.migration AS migration
