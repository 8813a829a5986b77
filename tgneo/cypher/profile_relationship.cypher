// Purpose: a recorded pipeline's retrieved edge that is a relationship of a graph profile's graph, by its element id: its ends (both of their entity label), its type, and up to three passages ($mentions reaches) that mention both ends, else the subject. Read only.
// Params: $id, $label, $key, $name, $mentions, $passage_label
// Returns: rel STRING, type STRING, s_element STRING, s_key ANY, s_name ANY, o_element STRING, o_key ANY, o_name ANY, passages LIST<STRING>
MATCH (s)-[r]->(o)
WHERE elementId(r) = $id AND $label IN labels(s) AND $label IN labels(o)
WITH r, s, o,
     COLLECT { MATCH (s)-[:$($mentions)]-(p:$($passage_label)) WHERE EXISTS { (o)-[:$($mentions)]-(p) }
               RETURN elementId(p) AS p ORDER BY p LIMIT 3 } AS shared
RETURN elementId(r) AS rel, type(r) AS type,
       elementId(s) AS s_element, s[$key] AS s_key, s[$name] AS s_name,
       elementId(o) AS o_element, o[$key] AS o_key, o[$name] AS o_name,
       CASE WHEN size(shared) > 0 THEN shared
            ELSE COLLECT { MATCH (s)-[:$($mentions)]-(p:$($passage_label)) RETURN elementId(p) AS p ORDER BY p LIMIT 3 }
       END AS passages
