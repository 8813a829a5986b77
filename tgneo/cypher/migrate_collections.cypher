// Purpose: migration to graph model 2: every workspace and collection holding reified statements or resources, to migrate one at a time through its own indexes.
// Params: none
// Returns: workspace STRING, collection STRING, statements INTEGER, resources INTEGER
CALL () {
  MATCH (st:TgStatement)
  WHERE st.workspace IS NOT NULL
  RETURN st.workspace AS workspace, st.collection AS collection, count(*) AS statements, 0 AS resources
  UNION ALL
  MATCH (n:TgResource)
  WHERE n.workspace IS NOT NULL
  RETURN n.workspace AS workspace, n.collection AS collection, 0 AS statements, count(*) AS resources
}
RETURN workspace, collection, sum(statements) AS statements, sum(resources) AS resources
ORDER BY workspace, collection
