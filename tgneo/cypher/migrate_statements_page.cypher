// Purpose: migration to graph model 2: one page of a collection's statements of the previous model (those still holding a PREDICATE relationship) after the id $after, in id order (through the statement key index), with their terms and the graphs they are asserted in.
// Params: $workspace, $collection, $after, $batch
// Returns: id STRING, s STRING, s_kind STRING, p STRING, o STRING, o_kind STRING, o_datatype STRING, o_lang STRING, asserted_in LIST<STRING>
MATCH (st:TgStatement {workspace: $workspace, collection: $collection})
WHERE st.id > $after AND EXISTS { (st)-[:PREDICATE]->() }
RETURN st.id AS id, st.s AS s, st.s_kind AS s_kind, st.p AS p, st.o AS o, st.o_kind AS o_kind,
       st.o_datatype AS o_datatype, st.o_lang AS o_lang, coalesce(st.asserted_in, []) AS asserted_in
ORDER BY id
LIMIT $batch
