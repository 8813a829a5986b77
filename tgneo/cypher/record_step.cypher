// Purpose: write one recorded explainability step (its entities, their links, the edges they quote and librarian texts) in a single statement; writes nothing when a parent step is missing. The light form of record_batch for what a recorder writes (store.write_path.write_batch picks it for a batch without import, prefixes, facts or literal values): the same rows and the same nodes, without the import journal's branches and the knowledge-graph phases, which cost every step a query several times this size (measured for issue 38). Rows arrive sorted by the node they lock, and the phases keep record_batch's order (resources, statements, then what points at them), so concurrent writers lock in one global order. Like record_batch without an import, it makes permanent any node an unfinished import created.
// Params: $workspace, $collection, $rows (one map of the batch's row lists, so that Neo4j plans the statement once: a list parameter's size is part of its plan cache key, a map's is not): parents, resources, entities, links, statements, parts (only the parts that are quoted triples: a new statement links its resources itself), statement_links, contents
// Returns: missing LIST<STRING> (parents that are not recorded entities; non-empty means nothing was written)
// Why no MERGE of a relationship: Neo4j 5.26 plans MERGE (a)-[r:$(type)]->(b), a dynamic type, as a scan of every relationship record per row when it plans it on a database with (almost) no relationships, and keeps that plan cached: the first import into a new database cost 6.5 times the next, 100 times on an emptied one (store.write_path says more). So each relationship is merged by hand, as MERGE would: its start node locked (a property set to itself: every writer of the relationship takes that lock first), then looked for from whichever of its two nodes has fewer relationships (as Expand(Into) does), with a one-hop variable-length match, which Neo4j can only plan as an expansion, its type checked in WHERE (a dynamic type on a variable-length relationship is accepted and ignored), and created when missing.
UNWIND (CASE WHEN size($rows.parents) = 0 THEN [null] ELSE $rows.parents END) AS parent_uri
OPTIONAL MATCH (parent:TgResource {workspace: $workspace, collection: $collection, uri: parent_uri})
WITH collect(
  CASE WHEN parent_uri IS NOT NULL AND (parent IS NULL OR NOT (parent:TgExplain OR parent:TgSource))
  THEN parent_uri END
) AS missing
OPTIONAL CALL (missing) {
  WITH missing WHERE size(missing) = 0
  CALL () {
    UNWIND $rows.resources AS r
    MERGE (n:Tgneo:TgResource {workspace: $workspace, collection: $collection, uri: r.uri})
    ON CREATE SET n.kind = r.kind, n.graph = ''
    WITH n WHERE n.tg_import IS NOT NULL
    REMOVE n.tg_import
  }
  CALL () {
    UNWIND $rows.statements AS st
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
    UNWIND $rows.parts AS part
    MATCH (n:TgStatement {workspace: $workspace, collection: $collection, id: part.statement})
    MATCH (r:TgStatement {workspace: $workspace, collection: $collection, id: part.nested})
    CALL (n, r, part) {
      SET n.workspace = n.workspace
      WITH n, r, part, CASE WHEN COUNT { (n)--() } <= COUNT { (r)--() } THEN [n, r] ELSE [r, n] END AS ends
      WITH n, r, part, ends[0] AS near, ends[1] AS far
      OPTIONAL MATCH (near)-[seen*1..1]-(far) WHERE type(seen[0]) = part.role AND startNode(seen[0]) = n
      WITH n, r, part WHERE seen IS NULL
      CREATE (n)-[:$(part.role)]->(r)
    }
  }
  CALL () {
    UNWIND $rows.entities AS e
    MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: e.uri})
    SET n:$(e.labels), n += e.props, n.graph = e.graph
  }
  CALL () {
    UNWIND $rows.links AS l
    MATCH (a:TgResource {workspace: $workspace, collection: $collection, uri: l.from})
    MATCH (b:TgResource {workspace: $workspace, collection: $collection, uri: l.to})
    CALL (a, b, l) {
      SET a.workspace = a.workspace
      WITH a, b, l, CASE WHEN COUNT { (a)--() } <= COUNT { (b)--() } THEN [a, b] ELSE [b, a] END AS ends
      WITH a, b, l, ends[0] AS near, ends[1] AS far
      OPTIONAL MATCH (near)-[seen*1..1]-(far) WHERE type(seen[0]) = l.type AND startNode(seen[0]) = a
      WITH a, b, l WHERE seen IS NULL
      CREATE (a)-[:$(l.type)]->(b)
    }
  }
  CALL () {
    UNWIND $rows.statement_links AS l
    MATCH (a:TgResource {workspace: $workspace, collection: $collection, uri: l.from})
    MATCH (s:TgStatement {workspace: $workspace, collection: $collection, id: l.statement})
    CALL (a, s, l) {
      SET a.workspace = a.workspace
      WITH a, s, l, CASE WHEN COUNT { (a)--() } <= COUNT { (s)--() } THEN [a, s] ELSE [s, a] END AS ends
      WITH a, s, l, ends[0] AS near, ends[1] AS far
      OPTIONAL MATCH (near)-[seen*1..1]-(far) WHERE type(seen[0]) = l.type AND startNode(seen[0]) = a
      WITH a, s, l WHERE seen IS NULL
      CREATE (a)-[:$(l.type)]->(s)
    }
    WITH a, s, l WHERE size(keys(l.props)) > 0
    MATCH (a)-[found*1..1]->(s) WHERE type(found[0]) = l.type
    UNWIND found AS r
    SET r += l.props
  }
  CALL () {
    UNWIND $rows.contents AS ct
    MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: ct.uri})
    SET n:TgContent, n.text = ct.text, n.contentType = ct.contentType
  }
  RETURN true AS written
}
RETURN missing
