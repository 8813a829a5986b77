// Purpose: an import's fast path: write one batch of plain knowledge-graph triples (default graph; IRI or blank-node subject; IRI, blank-node or literal object) in their native form, the same nodes, relationships and properties record_batch writes: each fact a typed relationship (MERGEd, so a triple is stored once), each literal a value of its subject's property (merged into the values the key holds; a value of another Neo4j type is reported as a misfit, for the caller to store as a reified edge in the same transaction). Rows are flat lists, not maps; the batch's resources are MERGEd once, in uri order, and collected, so a fact or literal reaches its nodes by list position instead of index seeks. A node the import did not create gets an undo snapshot before its first change, as in record_batch. The import's journal is locked last, not first, so that concurrent batches of one import overlap instead of queueing on it: the batch checks the journal's state (running) before writing, and again once it holds the lock; if the import was stopped in between, the batch divides by zero, the one way Cypher has to fail its own transaction, and nothing is written.
// Params: $workspace, $collection, $import_id, $prefixes (rows [prefix, namespace]), $resources (rows [uri, kind], sorted by uri), $facts (rows [subject index, object index, type, predicate IRI, id]), $literals (rows [subject index, key, values, tags])
// Returns: missing LIST<STRING> (the import id when that import is not running; non-empty means nothing was written), misfits LIST<LIST> ([subject index, key, [value indexes]] of literal values not stored natively)
OPTIONAL MATCH (early:TgImport {workspace: $workspace, collection: $collection, id: $import_id})
WITH CASE WHEN early IS NOT NULL AND early.state = 'running' THEN [] ELSE [$import_id] END AS missing
OPTIONAL CALL (missing) {
  WITH missing WHERE size(missing) = 0
  CALL () {
    UNWIND $prefixes AS px
    MERGE (x:Tgneo:TgPrefix {workspace: $workspace, collection: $collection, prefix: px[0]})
    ON CREATE SET x.namespace = px[1], x.tg_import = $import_id
    WITH x WHERE x.tg_import IS NOT NULL AND x.tg_import <> $import_id
    SET x.tg_import = x.tg_import
    MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'claim:x:' + x.prefix})
    ON CREATE SET u.undo_kind = 'claim', u.undo_target = 'prefix', u.undo_ref = x.prefix
  }
  CALL () {
    UNWIND $resources AS r
    MERGE (n:Tgneo:TgResource {workspace: $workspace, collection: $collection, uri: r[0]})
    ON CREATE SET n.kind = r[1], n.graph = '', n.tg_import = $import_id
    RETURN collect(n) AS nodes
  }
  CALL (nodes) {
    UNWIND nodes AS n
    WITH n WHERE n.tg_import IS NOT NULL AND n.tg_import <> $import_id
    SET n.tg_import = n.tg_import
    MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'claim:r:' + n.uri})
    ON CREATE SET u.undo_kind = 'claim', u.undo_target = 'resource', u.undo_ref = n.uri
  }
  CALL (nodes) {
    UNWIND $facts AS f
    WITH f, nodes[f[0]] AS a, nodes[f[1]] AS b
    CALL (a) {
      WITH a WHERE coalesce(a.tg_import, '') <> $import_id
      MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'entity:' + a.uri})
      ON CREATE SET u += properties(a), u.undo_kind = 'entity', u.undo_target = 'resource', u.undo_ref = a.uri, u.undo_labels = []
    }
    MERGE (a)-[r:$(f[2])]->(b)
    ON CREATE SET r.workspace = $workspace, r.collection = $collection, r.iri = f[3], r.id = f[4],
      r.tg_import = CASE WHEN a.tg_import = $import_id THEN null ELSE $import_id END
  }
  CALL (nodes) {
    UNWIND $literals AS l
    WITH l, nodes[l[0]] AS n
    CALL (n) {
      WITH n WHERE coalesce(n.tg_import, '') <> $import_id
      MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'entity:' + n.uri})
      ON CREATE SET u += properties(n), u.undo_kind = 'entity', u.undo_target = 'resource', u.undo_ref = n.uri, u.undo_labels = []
    }
    WITH n, l, n[l[1]] AS old, n['_' + l[1]] AS old_tags
    WITH n, l, CASE WHEN old IS NULL THEN [] WHEN valueType(old) STARTS WITH 'LIST' THEN old ELSE [old] END AS vals, old_tags
    WITH n, l, vals, coalesce(old_tags, [v IN vals | '']) AS tags
    WITH n, l, vals, tags, CASE WHEN size(vals) > 0 THEN valueType(vals[0]) ELSE valueType(l[2][0]) END AS kind,
         [i IN range(0, size(l[2]) - 1) WHERE NOT any(j IN range(0, size(vals) - 1)
            WHERE valueType(vals[j]) = valueType(l[2][i]) AND vals[j] = l[2][i] AND tags[j] = l[3][i])] AS fresh
    WITH n, l, vals + [i IN fresh WHERE valueType(l[2][i]) = kind | l[2][i]] AS values,
         tags + [i IN fresh WHERE valueType(l[2][i]) = kind | l[3][i]] AS marks,
         [i IN fresh WHERE valueType(l[2][i]) <> kind] AS misfits
    SET n[l[1]] = CASE size(values) WHEN 1 THEN values[0] ELSE values END,
        n['_' + l[1]] = CASE WHEN all(t IN marks WHERE t = '') THEN null ELSE marks END
    RETURN collect(CASE WHEN size(misfits) > 0 THEN [l[0], l[1], misfits] END) AS misfits
  }
  MATCH (journal:TgImport {workspace: $workspace, collection: $collection, id: $import_id})
  SET journal.heartbeat = datetime(), journal.batches = journal.batches + 1
  WITH journal, misfits
  FOREACH (stop IN CASE WHEN journal.state = 'running' THEN [] ELSE [1 / (journal.batches * 0)] END |
    SET journal.stopped = stop)
  RETURN misfits
}
RETURN missing, coalesce(misfits, []) AS misfits
