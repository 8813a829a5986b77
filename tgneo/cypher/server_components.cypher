// Purpose: which Neo4j answers — name, version and edition (readiness checks, `tgneo db status`).
// Params: none
// Returns: name STRING, version STRING, edition STRING
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions[0] AS version, edition
