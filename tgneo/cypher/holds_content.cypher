// Purpose: whether a collection holds anything to answer from — a knowledge-graph fact (a property value, a name among them, or a relationship carrying its predicate's iri), a reified statement, or a source-provenance node (document, page, section, chunk) — by index seeks that stop at the first hit; asked before a question is recorded, so that a mistyped collection writes nothing.
// Params: $workspace, $collection, $source_graph (urn:graph:source), $reserved (property keys that hold structure, not facts)
// Returns: holds BOOLEAN
RETURN EXISTS { MATCH (r:TgResource {workspace: $workspace, collection: $collection, graph: $source_graph}) }
    OR EXISTS { MATCH (s:TgStatement {workspace: $workspace, collection: $collection}) WHERE s.id IS NOT NULL }
    OR EXISTS { MATCH (e:TgResource {workspace: $workspace, collection: $collection, graph: ''})
                WHERE any(k IN keys(e) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved)
                   OR EXISTS { (e)-[f]->() WHERE f.iri IS NOT NULL } } AS holds
