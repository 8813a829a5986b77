// Purpose: what a graph profile may name (graph profiles, tgneo/graph_profiles.py): the database's labels, relationship types and property keys, and its indexes with their labels, properties and vector dimensions.
// Params: (none)
// Returns: labels LIST<STRING>, types LIST<STRING>, keys LIST<STRING>
RETURN COLLECT { CALL db.labels() YIELD label RETURN label } AS labels,
       COLLECT { CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType } AS types,
       COLLECT { CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey } AS keys
