// Purpose: whether a collection holds anything to answer from — a statement or a source-provenance node (document, page, section, chunk) — by two index seeks that stop at the first hit; asked before a question is recorded, so that a mistyped collection writes nothing.
// Params: $workspace, $collection, $source_graph (urn:graph:source)
// Returns: holds BOOLEAN
RETURN EXISTS { MATCH (s:Statement {workspace: $workspace, collection: $collection}) WHERE s.id IS NOT NULL }
    OR EXISTS { MATCH (r:Resource {workspace: $workspace, collection: $collection, graph: $source_graph}) } AS holds
