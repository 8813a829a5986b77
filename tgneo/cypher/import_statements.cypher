// Purpose: an import's fast path: write one batch of plain knowledge-graph triples (IRI or blank-node subject; IRI, blank-node or literal object) as :Statement nodes in a single statement, the same nodes record_batch writes. Rows are flat lists, not maps; the batch's resources are MERGEd once, in uri order, and collected, so a new statement reaches its subject, predicate and object by list position instead of three index seeks. A statement the collection lacks is CREATEd (a concurrent writer that created it first makes this fail on the key constraint, and the caller runs the batch again); one it holds gains the graphs it was missing, with the same undo records and claims as record_batch. The import's journal is locked last, not first, so that concurrent batches of one import overlap instead of queueing on it: the batch checks the journal's state (running) before writing, and again once it holds the lock; if the import was stopped in between, the batch divides by zero, the one way Cypher has to fail its own transaction, and nothing is written (a rollback that moved the journal cannot finish under an uncommitted batch, and a batch cannot commit after it).
// Params: $workspace, $collection, $import_id, $resources (rows [uri, kind], sorted by uri), $statements (rows [id, s, s_kind, p, o, o_kind, o_datatype, o_lang, subject index, predicate index, object index or -1, asserted graphs], sorted by id)
// Returns: missing LIST<STRING> (the import id when that import is not running; non-empty means nothing was written)
OPTIONAL MATCH (early:Import {workspace: $workspace, collection: $collection, id: $import_id})
WITH CASE WHEN early IS NOT NULL AND early.state = 'running' THEN [] ELSE [$import_id] END AS missing
CALL (missing) {
  WITH missing WHERE size(missing) = 0
  CALL () {
    UNWIND $resources AS r
    MERGE (n:Resource {workspace: $workspace, collection: $collection, uri: r[0]})
    ON CREATE SET n.kind = r[1], n.graph = '', n.tg_import = $import_id
    RETURN collect(n) AS nodes
  }
  CALL (nodes) {
    UNWIND nodes AS n
    WITH n WHERE n.tg_import IS NOT NULL AND n.tg_import <> $import_id
    SET n.tg_import = n.tg_import
    MERGE (u:ImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'claim:r:' + n.uri})
    ON CREATE SET u.undo_kind = 'claim', u.undo_target = 'resource', u.undo_ref = n.uri
  }
  UNWIND $statements AS st
  OPTIONAL MATCH (old:Statement {workspace: $workspace, collection: $collection, id: st[0]})
  CALL (old, st, nodes) {
    WITH old, st, nodes WHERE old IS NULL
    CREATE (n:Statement {workspace: $workspace, collection: $collection, id: st[0], s: st[1], s_kind: st[2], p: st[3],
                         o: st[4], o_kind: st[5], o_datatype: st[6], o_lang: st[7], graph: '', asserted_in: st[11],
                         tg_import: $import_id})
    WITH n, st, nodes, nodes[st[8]] AS subject, nodes[st[9]] AS predicate
    CREATE (n)-[:SUBJECT]->(subject), (n)-[:PREDICATE]->(predicate)
    WITH n, st, nodes WHERE st[10] >= 0
    WITH n, nodes[st[10]] AS object
    CREATE (n)-[:OBJECT]->(object)
  }
  CALL (old, st) {
    WITH old, st WHERE old IS NOT NULL
    WITH old, [g IN st[11] WHERE NOT g IN coalesce(old.asserted_in, [])] AS fresh
    CALL (old, fresh) {
      WITH old, fresh WHERE size(fresh) > 0
      SET old.asserted_in = coalesce(old.asserted_in, []) + fresh
    }
    CALL (old, fresh) {
      WITH old, fresh WHERE size(fresh) > 0 AND coalesce(old.tg_import, '') <> $import_id
      MERGE (u:ImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'graphs:' + old.id})
      ON CREATE SET u.undo_kind = 'graphs', u.undo_target = 'statement', u.undo_ref = old.id, u.undo_graphs = []
      SET u.undo_graphs = u.undo_graphs + fresh
    }
    CALL (old) {
      WITH old WHERE old.tg_import IS NOT NULL AND old.tg_import <> $import_id
      SET old.tg_import = old.tg_import
      MERGE (u:ImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id, undo_key: 'claim:s:' + old.id})
      ON CREATE SET u.undo_kind = 'claim', u.undo_target = 'statement', u.undo_ref = old.id
    }
  }
  WITH count(*) AS written
  MATCH (journal:Import {workspace: $workspace, collection: $collection, id: $import_id})
  SET journal.heartbeat = datetime(), journal.batches = journal.batches + 1
  WITH journal
  FOREACH (stop IN CASE WHEN journal.state = 'running' THEN [] ELSE [1 / (journal.batches * 0)] END |
    SET journal.stopped = stop)
}
RETURN missing
