// Purpose: an import's fast path: write one batch of plain knowledge-graph triples (default graph; IRI or blank-node subject; IRI, blank-node or literal object) in their native form, the same nodes, relationships and properties record_batch writes: each fact a typed relationship (merged, so a triple is stored once), each literal a value of its subject's property. Rows are flat lists, not maps; the batch's resources are MERGEd once, in uri order, and collected, so a fact reaches its nodes by list position instead of index seeks. A resource carries the map of the literal values the batch holds for it (values and sidecar tags, as stored): a node this statement creates takes the map whole, and so does one that existed but holds none of its keys; one that holds other values under some key has the values merged key by key into those it holds (nothing is written to a node the batch only points at, so concurrent batches do not queue on each other's objects) (a value of another Neo4j type is reported as a misfit, for the caller to store as a reified edge in the same transaction). A subject the import did not create gets an undo snapshot before its first change, as in record_batch. The import's journal is locked last, not first, so that concurrent batches of one import overlap instead of queueing on it: the batch checks the journal's state (running) before writing, and again once it holds the lock; if the import was stopped in between, the batch divides by zero, the one way Cypher has to fail its own transaction, and nothing is written.
// Params: $workspace, $collection, $import_id, $rows (one map of the batch's row lists, so that Neo4j plans the statement once: a list parameter's size is part of its plan cache key, a map's is not): prefixes (rows [prefix, namespace]), resources (rows [uri, kind, literal map (empty when none), whether it is a subject in the batch], sorted by uri), facts (rows [subject index, object index, type, predicate IRI, id])
// Returns: missing LIST<STRING> (the import id when that import is not running; non-empty means nothing was written), misfits LIST<LIST> ([subject uri, key, [value indexes]] of literal values not stored natively)
// Why no MERGE of a relationship: Neo4j 5.26 plans MERGE (a)-[r:$(type)]->(b), a dynamic type, as a scan of every relationship record per row when it plans it on a database with (almost) no relationships, and keeps that plan cached: the first import into a new database cost 6.5 times the next, 100 times on an emptied one (store.write_path says more). So each relationship is merged by hand, as MERGE would: its start node locked (a property set to itself: every writer of the relationship takes that lock first), then looked for from whichever of its two nodes has fewer relationships (as Expand(Into) does), with a one-hop variable-length match, which Neo4j can only plan as an expansion, its type checked in WHERE (a dynamic type on a variable-length relationship is accepted and ignored), and created when missing.
OPTIONAL MATCH (early:TgImport {workspace: $workspace, collection: $collection, id: $import_id})
WITH CASE WHEN early IS NOT NULL AND early.state = 'running' THEN [] ELSE [$import_id] END AS missing
OPTIONAL CALL (missing) {
  WITH missing WHERE size(missing) = 0
  CALL () {
    UNWIND $rows.prefixes AS px
    MERGE (x:Tgneo:TgPrefix {workspace: $workspace, collection: $collection, prefix: px[0]})
    ON CREATE SET x.namespace = px[1], x.tg_import = $import_id
    WITH x WHERE x.tg_import IS NOT NULL AND x.tg_import <> $import_id
    SET x.tg_import = x.tg_import
    MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'claim:x:' + x.prefix})
    ON CREATE SET u.undo_kind = 'claim', u.undo_target = 'prefix', u.undo_ref = x.prefix
  }
  CALL () {
    UNWIND $rows.resources AS r
    MERGE (n:Tgneo:TgResource {workspace: $workspace, collection: $collection, uri: r[0]})
    ON CREATE SET n.kind = r[1], n.graph = '', n.tg_import = $import_id, n += r[2]
    WITH n, r, coalesce(n.tg_import, '') <> $import_id AS foreign,
         [k IN keys(r[2]) WHERE n[k] IS NULL OR n[k] <> r[2][k]] AS differing
    RETURN collect(n) AS nodes,
           collect(CASE WHEN foreign THEN [n, r[3]] END) AS foreign,
           collect(CASE WHEN size(differing) > 0 AND all(k IN differing WHERE n[k] IS NULL) THEN [n, r[2]] END) AS adding,
           collect(CASE WHEN any(k IN differing WHERE n[k] IS NOT NULL) THEN [n, r[2]] END) AS merging
  }
  CALL (foreign) {
    UNWIND foreign AS f
    WITH f[0] AS n WHERE n.tg_import IS NOT NULL
    SET n.tg_import = n.tg_import
    MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'claim:r:' + n.uri})
    ON CREATE SET u.undo_kind = 'claim', u.undo_target = 'resource', u.undo_ref = n.uri
  }
  CALL (foreign) {
    UNWIND foreign AS f
    WITH f[0] AS n WHERE f[1]
    MERGE (u:Tgneo:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'entity:' + n.uri})
    ON CREATE SET u += properties(n), u.undo_kind = 'entity', u.undo_target = 'resource', u.undo_ref = n.uri, u.undo_labels = []
  }
  CALL (adding) {
    UNWIND adding AS a
    WITH a[0] AS n, a[1] AS m
    SET n += m
  }
  CALL (nodes) {
    UNWIND $rows.facts AS f
    WITH f, nodes[f[0]] AS a, nodes[f[1]] AS b
    CALL (a, b, f) {
      SET a.workspace = a.workspace
      WITH a, b, f, CASE WHEN COUNT { (a)--() } <= COUNT { (b)--() } THEN [a, b] ELSE [b, a] END AS ends
      WITH a, b, f, ends[0] AS near, ends[1] AS far
      OPTIONAL MATCH (near)-[seen*1..1]-(far) WHERE type(seen[0]) = f[2] AND startNode(seen[0]) = a
      WITH a, b, f WHERE seen IS NULL
      CREATE (a)-[r:$(f[2])]->(b)
      SET r.workspace = $workspace, r.collection = $collection, r.iri = f[3], r.id = f[4],
        r.tg_import = CASE WHEN a.tg_import = $import_id THEN null ELSE $import_id END
    }
  }
  CALL (merging) {
    UNWIND range(0, size(merging) - 1) AS i
    WITH i, merging[i][0] AS n, merging[i][1] AS m
    UNWIND [k IN keys(m) WHERE NOT k STARTS WITH '_'] AS k
    WITH i, n, k, CASE WHEN valueType(m[k]) STARTS WITH 'LIST' THEN m[k] ELSE [m[k]] END AS new, m['_' + k] AS new_tags
    WITH i, n, k, new, coalesce(new_tags, [v IN new | '']) AS new_tags, n[k] AS old, n['_' + k] AS old_tags
    WITH i, n, k, new, new_tags, CASE WHEN old IS NULL THEN [] WHEN valueType(old) STARTS WITH 'LIST' THEN old ELSE [old] END AS vals, old_tags
    WITH i, n, k, new, new_tags, vals, coalesce(old_tags, [v IN vals | '']) AS tags
    WITH i, n, k, new, new_tags, vals, tags, CASE WHEN size(vals) > 0 THEN valueType(vals[0]) ELSE valueType(new[0]) END AS kind,
         [j IN range(0, size(new) - 1) WHERE NOT any(h IN range(0, size(vals) - 1)
            WHERE valueType(vals[h]) = valueType(new[j]) AND vals[h] = new[j] AND tags[h] = new_tags[j])] AS fresh
    WITH i, n, k, vals + [j IN fresh WHERE valueType(new[j]) = kind | new[j]] AS values,
         tags + [j IN fresh WHERE valueType(new[j]) = kind | new_tags[j]] AS marks,
         [j IN fresh WHERE valueType(new[j]) <> kind] AS misfits
    SET n[k] = CASE size(values) WHEN 1 THEN values[0] ELSE values END,
        n['_' + k] = CASE WHEN all(t IN marks WHERE t = '') THEN null ELSE marks END
    RETURN collect(CASE WHEN size(misfits) > 0 THEN [n.uri, k, misfits] END) AS misfits
  }
  MATCH (journal:TgImport {workspace: $workspace, collection: $collection, id: $import_id})
  SET journal.heartbeat = datetime(), journal.batches = journal.batches + 1
  WITH journal, misfits
  FOREACH (stop IN CASE WHEN journal.state = 'running' THEN [] ELSE [1 / (journal.batches * 0)] END |
    SET journal.stopped = stop)
  RETURN misfits
}
RETURN missing, coalesce(misfits, []) AS misfits
