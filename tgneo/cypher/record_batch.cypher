// Purpose: write one compiled batch (a recorded step, or a slice of an import) in a single statement; writes nothing when a parent step is missing. Rows arrive sorted by the node they lock, and every phase below runs over one kind of shared node, so concurrent writers lock in one global order: resources, then statements, then the resources statements point at.
// Params: $workspace, $collection, $parents, $resources, $entities, $links, $statements, $parts, $statement_links, $contents
// Returns: missing LIST<STRING> (parents that are not recorded entities; non-empty means nothing was written)
UNWIND (CASE WHEN size($parents) = 0 THEN [null] ELSE $parents END) AS parent_uri
OPTIONAL MATCH (parent:Resource {workspace: $workspace, collection: $collection, uri: parent_uri})
WITH collect(
  CASE WHEN parent_uri IS NOT NULL AND (parent IS NULL OR NOT (parent:Explain OR parent:Source))
  THEN parent_uri END
) AS missing
CALL (missing) {
  WITH missing WHERE size(missing) = 0
  CALL () {
    UNWIND $resources AS r
    MERGE (n:Resource {workspace: $workspace, collection: $collection, uri: r.uri})
    ON CREATE SET n.kind = r.kind, n.graph = ''
  }
  CALL () {
    UNWIND $statements AS st
    MERGE (n:Statement {workspace: $workspace, collection: $collection, id: st.id})
    ON CREATE SET n += st.props, n.graph = '', n.asserted_in = st.asserted
    WITH n, [g IN st.asserted WHERE NOT g IN coalesce(n.asserted_in, [])] AS fresh
    CALL (n, fresh) {
      WITH n, fresh WHERE size(fresh) > 0
      SET n.asserted_in = coalesce(n.asserted_in, []) + fresh
    }
  }
  CALL () {
    UNWIND $parts AS part
    MATCH (n:Statement {workspace: $workspace, collection: $collection, id: part.statement})
    CALL (n, part) {
      WITH n, part WHERE part.uri IS NOT NULL
      MATCH (r:Resource {workspace: $workspace, collection: $collection, uri: part.uri})
      MERGE (n)-[:$(part.role)]->(r)
    }
    CALL (n, part) {
      WITH n, part WHERE part.nested IS NOT NULL
      MATCH (r:Statement {workspace: $workspace, collection: $collection, id: part.nested})
      MERGE (n)-[:$(part.role)]->(r)
    }
  }
  CALL () {
    UNWIND $entities AS e
    MATCH (n:Resource {workspace: $workspace, collection: $collection, uri: e.uri})
    SET n:$(e.labels), n += e.props, n.graph = e.graph
  }
  CALL () {
    UNWIND $links AS l
    MATCH (a:Resource {workspace: $workspace, collection: $collection, uri: l.from})
    MATCH (b:Resource {workspace: $workspace, collection: $collection, uri: l.to})
    MERGE (a)-[:$(l.type)]->(b)
  }
  CALL () {
    UNWIND $statement_links AS l
    MATCH (a:Resource {workspace: $workspace, collection: $collection, uri: l.from})
    MATCH (s:Statement {workspace: $workspace, collection: $collection, id: l.statement})
    MERGE (a)-[:$(l.type)]->(s)
  }
  CALL () {
    UNWIND $contents AS ct
    MATCH (n:Resource {workspace: $workspace, collection: $collection, uri: ct.uri})
    SET n:Content, n.text = ct.text, n.contentType = ct.contentType
  }
}
RETURN missing
