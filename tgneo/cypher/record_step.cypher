// Purpose: write one recorded explainability step (its entities, their links, the edges they quote and librarian texts) in a single statement; writes nothing when a parent step is missing. The light form of record_batch for what a recorder writes (store.write_path.write_batch picks it for a batch without import, prefixes, facts or literal values): the same rows and the same nodes, without the import journal's branches and the knowledge-graph phases, which cost every step a query several times this size (measured for issue 38). Rows arrive sorted by the node they lock, and the phases keep record_batch's order (resources, statements, then what points at them), so concurrent writers lock in one global order. Like record_batch without an import, it makes permanent any node an unfinished import created.
// Params: $workspace, $collection, $parents, $resources, $entities, $links, $statements, $parts (only the parts that are quoted triples: a new statement links its resources itself), $statement_links, $contents
// Returns: missing LIST<STRING> (parents that are not recorded entities; non-empty means nothing was written)
UNWIND (CASE WHEN size($parents) = 0 THEN [null] ELSE $parents END) AS parent_uri
OPTIONAL MATCH (parent:TgResource {workspace: $workspace, collection: $collection, uri: parent_uri})
WITH collect(
  CASE WHEN parent_uri IS NOT NULL AND (parent IS NULL OR NOT (parent:TgExplain OR parent:TgSource))
  THEN parent_uri END
) AS missing
OPTIONAL CALL (missing) {
  WITH missing WHERE size(missing) = 0
  CALL () {
    UNWIND $resources AS r
    MERGE (n:Tgneo:TgResource {workspace: $workspace, collection: $collection, uri: r.uri})
    ON CREATE SET n.kind = r.kind, n.graph = ''
    WITH n WHERE n.tg_import IS NOT NULL
    REMOVE n.tg_import
  }
  CALL () {
    UNWIND $statements AS st
    MERGE (n:Tgneo:TgStatement {workspace: $workspace, collection: $collection, id: st.id})
    ON CREATE SET n += st.props, n.graph = '', n.asserted_in = st.asserted, n.tg_new = true
    WITH n, st
    CALL (n, st) {
      WITH n, st WHERE n.tg_new
      REMOVE n.tg_new
      WITH n, st
      CALL (n, st) {
        WITH n, st WHERE st.props.s_kind IN ['iri', 'bnode']
        MATCH (r:TgResource {workspace: $workspace, collection: $collection, uri: st.props.s})
        CREATE (n)-[:SUBJECT]->(r)
      }
      CALL (n, st) {
        WITH n, st WHERE st.props.o_kind IN ['iri', 'bnode']
        MATCH (r:TgResource {workspace: $workspace, collection: $collection, uri: st.props.o})
        CREATE (n)-[:OBJECT]->(r)
      }
    }
    WITH n, [g IN st.asserted WHERE NOT g IN coalesce(n.asserted_in, [])] AS fresh
    CALL (n, fresh) {
      WITH n, fresh WHERE size(fresh) > 0
      SET n.asserted_in = coalesce(n.asserted_in, []) + fresh
    }
    CALL (n) {
      WITH n WHERE n.tg_import IS NOT NULL
      REMOVE n.tg_import
    }
  }
  CALL () {
    UNWIND $parts AS part
    MATCH (n:TgStatement {workspace: $workspace, collection: $collection, id: part.statement})
    MATCH (r:TgStatement {workspace: $workspace, collection: $collection, id: part.nested})
    MERGE (n)-[:$(part.role)]->(r)
  }
  CALL () {
    UNWIND $entities AS e
    MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: e.uri})
    SET n:$(e.labels), n += e.props, n.graph = e.graph
  }
  CALL () {
    UNWIND $links AS l
    MATCH (a:TgResource {workspace: $workspace, collection: $collection, uri: l.from})
    MATCH (b:TgResource {workspace: $workspace, collection: $collection, uri: l.to})
    MERGE (a)-[:$(l.type)]->(b)
  }
  CALL () {
    UNWIND $statement_links AS l
    MATCH (a:TgResource {workspace: $workspace, collection: $collection, uri: l.from})
    MATCH (s:TgStatement {workspace: $workspace, collection: $collection, id: l.statement})
    MERGE (a)-[r:$(l.type)]->(s)
    SET r += l.props
  }
  CALL () {
    UNWIND $contents AS ct
    MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: ct.uri})
    SET n:TgContent, n.text = ct.text, n.contentType = ct.contentType
  }
  RETURN true AS written
}
RETURN missing
