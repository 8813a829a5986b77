// Purpose: statements of a collection for RDF export: all of them, or those with the ids in $ids plus every statement they nest.
// Params: $workspace, $collection, $ids
// Returns: id STRING, s STRING, s_kind STRING, p STRING, o STRING, o_kind STRING, o_datatype STRING, o_lang STRING, asserted_in LIST<STRING>
MATCH (top:Statement {workspace: $workspace, collection: $collection})
WHERE $ids IS NULL OR top.id IN $ids
MATCH (top)-[:SUBJECT|OBJECT]->{0,8}(st:Statement)
WITH DISTINCT st
RETURN st.id AS id, st.s AS s, st.s_kind AS s_kind, st.p AS p, st.o AS o, st.o_kind AS o_kind,
       st.o_datatype AS o_datatype, st.o_lang AS o_lang, coalesce(st.asserted_in, []) AS asserted_in
ORDER BY id
