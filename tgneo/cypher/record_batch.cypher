// Purpose: write one compiled batch (a recorded step, a loaded document, or a slice of an import) in a single statement; writes nothing when a parent step is missing or when the import it belongs to is no longer running. Rows arrive sorted by the node they lock, and every phase below runs over one kind of shared node, so concurrent writers lock in one global order: the import journal, prefixes, resources, then statements, then the resources statements point at, then facts (typed relationships between resources, named by the native rule) and literal values (properties of their subject; a value whose Neo4j type differs from the values its key holds is reported as a misfit, for the caller to store as a reified edge in the same transaction). With $import_id set (an import), every node the batch creates carries tg_import = $import_id, and every change to a node it did not create leaves a :TgImportUndo record (a snapshot of the node before its first change), so store.imports can commit or roll back the whole import later; $import_id null (the recorder, the loader) writes plainly and makes permanent any node an unfinished import created.
// Params: $workspace, $collection, $import_id, $rows (one map of the batch's row lists, so that Neo4j plans the statement once: a list parameter's size is part of its plan cache key, a map's is not): parents, prefixes, resources, entities, links, statements, parts (only the parts that are quoted triples: a new statement links its resources itself), statement_links, contents, facts, literals
// Returns: missing LIST<STRING> (parents that are not recorded entities, or the import id when that import is not running; non-empty means nothing was written), misfits LIST<LIST> ([subject uri, key, [value indexes]] of literal values not stored natively)
// Why no MERGE of a relationship: Neo4j 5.26 plans MERGE (a)-[r:$(type)]->(b), a dynamic type, as a scan of every relationship record per row when it plans it on a database with (almost) no relationships, and keeps that plan cached: the first import into a new database cost 6.5 times the next, 100 times on an emptied one (store.write_path says more). So each relationship is merged by hand, as MERGE would: its start node locked (a property set to itself: every writer of the relationship takes that lock first), then looked for from whichever of its two nodes has fewer relationships (as Expand(Into) does), with a one-hop variable-length match, which Neo4j can only plan as an expansion, its type checked in WHERE (a dynamic type on a variable-length relationship is accepted and ignored), and created when missing.
OPTIONAL MATCH (journal:TgImport {workspace: $workspace, collection: $collection, id: $import_id})
CALL (journal) {
  WITH journal WHERE journal IS NOT NULL AND journal.state = 'running'
  SET journal.heartbeat = datetime(), journal.batches = journal.batches + 1
}
WITH CASE WHEN $import_id IS NOT NULL AND (journal IS NULL OR journal.state <> 'running') THEN [$import_id] ELSE [] END AS stopped
UNWIND (CASE WHEN size($rows.parents) = 0 THEN [null] ELSE $rows.parents END) AS parent_uri
OPTIONAL MATCH (parent:TgResource {workspace: $workspace, collection: $collection, uri: parent_uri})
WITH stopped, collect(
  CASE WHEN parent_uri IS NOT NULL AND (parent IS NULL OR NOT (parent:TgExplain OR parent:TgSource))
  THEN parent_uri END
) AS missing_parents
WITH stopped + missing_parents AS missing
OPTIONAL CALL (missing) {
  WITH missing WHERE size(missing) = 0
  CALL () {
    UNWIND $rows.prefixes AS px
    MERGE (x:Tgneo:TgPrefix {workspace: $workspace, collection: $collection, prefix: px.prefix})
    ON CREATE SET x.namespace = px.namespace, x.tg_import = $import_id
    WITH x WHERE x.tg_import IS NOT NULL AND x.tg_import <> coalesce($import_id, '')
    CALL (x) {
      WITH x WHERE $import_id IS NULL
      REMOVE x.tg_import
    }
    CALL (x) {
      WITH x WHERE $import_id IS NOT NULL
      SET x.tg_import = x.tg_import
      MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'claim:x:' + x.prefix})
      ON CREATE SET u.undo_kind = 'claim', u.undo_target = 'prefix', u.undo_ref = x.prefix
    }
  }
  CALL () {
    UNWIND $rows.resources AS r
    MERGE (n:Tgneo:TgResource {workspace: $workspace, collection: $collection, uri: r.uri})
    ON CREATE SET n.kind = r.kind, n.graph = '', n.tg_import = $import_id
    WITH n WHERE n.tg_import IS NOT NULL AND n.tg_import <> coalesce($import_id, '')
    CALL (n) {
      WITH n WHERE $import_id IS NULL
      REMOVE n.tg_import
    }
    CALL (n) {
      WITH n WHERE $import_id IS NOT NULL
      SET n.tg_import = n.tg_import
      MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'claim:r:' + n.uri})
      ON CREATE SET u.undo_kind = 'claim', u.undo_target = 'resource', u.undo_ref = n.uri
    }
  }
  CALL () {
    UNWIND $rows.statements AS st
    MERGE (n:Tgneo:TgStatement {workspace: $workspace, collection: $collection, id: st.id})
    ON CREATE SET n += st.props, n.graph = '', n.asserted_in = st.asserted, n.tg_import = $import_id, n.tg_new = true
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
    WITH n, st, [g IN st.asserted WHERE NOT g IN coalesce(n.asserted_in, [])] AS fresh
    CALL (n, fresh) {
      WITH n, fresh WHERE size(fresh) > 0
      SET n.asserted_in = coalesce(n.asserted_in, []) + fresh
    }
    CALL (n, fresh) {
      WITH n, fresh WHERE size(fresh) > 0 AND $import_id IS NOT NULL AND coalesce(n.tg_import, '') <> $import_id
      MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'graphs:' + n.id})
      ON CREATE SET u.undo_kind = 'graphs', u.undo_target = 'statement', u.undo_ref = n.id, u.undo_graphs = []
      SET u.undo_graphs = u.undo_graphs + fresh
    }
    CALL (n) {
      WITH n WHERE n.tg_import IS NOT NULL AND n.tg_import <> coalesce($import_id, '')
      CALL (n) {
        WITH n WHERE $import_id IS NULL
        REMOVE n.tg_import
      }
      CALL (n) {
        WITH n WHERE $import_id IS NOT NULL
        SET n.tg_import = n.tg_import
        MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'claim:s:' + n.id})
        ON CREATE SET u.undo_kind = 'claim', u.undo_target = 'statement', u.undo_ref = n.id
      }
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
    CALL (n, e) {
      WITH n, e WHERE $import_id IS NOT NULL AND coalesce(n.tg_import, '') <> $import_id
      MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'entity:' + n.uri})
      ON CREATE SET u += properties(n), u.undo_kind = 'entity', u.undo_target = 'resource', u.undo_ref = n.uri,
        u.undo_labels = [label IN e.labels WHERE NOT label IN labels(n)]
      ON MATCH SET u.undo_labels = u.undo_labels + [label IN e.labels WHERE NOT label IN labels(n)]
    }
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
      CREATE (a)-[r:$(l.type)]->(b)
      SET r.tg_import = CASE WHEN a.tg_import = $import_id THEN null ELSE $import_id END
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
      CREATE (a)-[r:$(l.type)]->(s)
      SET r.tg_import = CASE WHEN a.tg_import = $import_id THEN null ELSE $import_id END
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
  CALL () {
    UNWIND $rows.facts AS f
    MATCH (a:TgResource {workspace: $workspace, collection: $collection, uri: f.s})
    MATCH (b:TgResource {workspace: $workspace, collection: $collection, uri: f.o})
    CALL (a) {
      WITH a WHERE $import_id IS NOT NULL AND coalesce(a.tg_import, '') <> $import_id
      MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'entity:' + a.uri})
      ON CREATE SET u += properties(a), u.undo_kind = 'entity', u.undo_target = 'resource', u.undo_ref = a.uri, u.undo_labels = []
    }
    CALL (a, b, f) {
      SET a.workspace = a.workspace
      WITH a, b, f, CASE WHEN COUNT { (a)--() } <= COUNT { (b)--() } THEN [a, b] ELSE [b, a] END AS ends
      WITH a, b, f, ends[0] AS near, ends[1] AS far
      OPTIONAL MATCH (near)-[seen*1..1]-(far) WHERE type(seen[0]) = f.type AND startNode(seen[0]) = a
      WITH a, b, f WHERE seen IS NULL
      CREATE (a)-[r:$(f.type)]->(b)
      SET r.workspace = $workspace, r.collection = $collection, r.iri = f.iri, r.id = f.id,
        r.tg_import = CASE WHEN a.tg_import = $import_id THEN null ELSE $import_id END
    }
  }
  CALL () {
    UNWIND $rows.literals AS l
    MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: l.s})
    CALL (n) {
      WITH n WHERE $import_id IS NOT NULL AND coalesce(n.tg_import, '') <> $import_id
      MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'entity:' + n.uri})
      ON CREATE SET u += properties(n), u.undo_kind = 'entity', u.undo_target = 'resource', u.undo_ref = n.uri, u.undo_labels = []
    }
    WITH n, l, n[l.key] AS old, n['_' + l.key] AS old_tags
    WITH n, l, CASE WHEN old IS NULL THEN [] WHEN valueType(old) STARTS WITH 'LIST' THEN old ELSE [old] END AS vals, old_tags
    WITH n, l, vals, coalesce(old_tags, [v IN vals | '']) AS tags
    WITH n, l, vals, tags, CASE WHEN size(vals) > 0 THEN valueType(vals[0]) ELSE valueType(l.values[0]) END AS kind,
         [i IN range(0, size(l.values) - 1) WHERE NOT any(j IN range(0, size(vals) - 1)
            WHERE valueType(vals[j]) = valueType(l.values[i]) AND vals[j] = l.values[i] AND tags[j] = l.tags[i])] AS fresh
    WITH n, l, vals + [i IN fresh WHERE valueType(l.values[i]) = kind | l.values[i]] AS values,
         tags + [i IN fresh WHERE valueType(l.values[i]) = kind | l.tags[i]] AS marks,
         [i IN fresh WHERE valueType(l.values[i]) <> kind] AS misfits
    SET n[l.key] = CASE size(values) WHEN 1 THEN values[0] ELSE values END,
        n['_' + l.key] = CASE WHEN all(t IN marks WHERE t = '') THEN null ELSE marks END
    RETURN collect(CASE WHEN size(misfits) > 0 THEN [l.s, l.key, misfits] END) AS misfits
  }
  RETURN misfits
}
RETURN missing, coalesce(misfits, []) AS misfits
