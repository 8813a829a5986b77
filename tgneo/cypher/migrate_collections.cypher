// Purpose: migration to graph model 2: every workspace and collection holding statements of the previous model (a statement with a PREDICATE relationship: model 2 has none), with how many, to migrate one at a time through their own indexes.
// Params: none
// Returns: workspace STRING, collection STRING, statements INTEGER
MATCH (st:TgStatement)-[:PREDICATE]->()
WITH st.workspace AS workspace, st.collection AS collection, count(*) AS statements
RETURN workspace, collection, statements
ORDER BY workspace, collection
