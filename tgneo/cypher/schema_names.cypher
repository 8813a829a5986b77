// Purpose: which of tgneo's indexes and constraints exist by name, after installing them: Neo4j's IF NOT EXISTS silently creates nothing when an equivalent index exists under another name (LangChain's `vector` on the same label and property, say), so each one is looked up by the name tgneo gave it.
// Params: $names
// Returns: name STRING, type STRING, labels LIST<STRING>, properties LIST<STRING>
SHOW INDEXES YIELD name, type, labelsOrTypes, properties
WHERE name IN $names
RETURN name, type, labelsOrTypes AS labels, properties
