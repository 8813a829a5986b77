// Purpose: whether a collection holds anything to answer from — a knowledge-graph fact (a named entity, or a relationship carrying its predicate's iri), a reified statement, or a source-provenance node (document, page, section, chunk) — by index seeks that stop at the first hit; asked before a question is recorded, so that a mistyped collection writes nothing.
// Params: $workspace, $collection, $source_graph (urn:graph:source)
// Returns: holds BOOLEAN
RETURN EXISTS { MATCH (r:TgResource {workspace: $workspace, collection: $collection, graph: $source_graph}) }
    OR EXISTS { MATCH (s:TgStatement {workspace: $workspace, collection: $collection}) WHERE s.id IS NOT NULL }
    OR EXISTS { MATCH (e:TgResource {workspace: $workspace, collection: $collection, graph: ''})
                WHERE e.name IS NOT NULL OR EXISTS { (e)-[f]->() WHERE f.iri IS NOT NULL } } AS holds
