// Purpose: the indexes on one label and set of properties, whatever their names: what stands in the way of a tgneo index Neo4j did not create.
// Params: $label, $properties
// Returns: name STRING, type STRING
SHOW INDEXES YIELD name, type, labelsOrTypes, properties
WHERE $label IN coalesce(labelsOrTypes, []) AND properties = $properties
RETURN name, type
