// Purpose: `tgneo load index --graph`: the next page of their nodes of $label (entities or chunks, never one carrying a label of $exclude, by element id after $after), each with the text to embed ($text: a name or a chunk's text). Read only.
// Params: $label, $exclude, $key, $text, $after, $limit
// Returns: element STRING, key ANY, text STRING
MATCH (n:$($label))
WHERE elementId(n) > $after AND n[$text] IS NOT NULL AND none(l IN labels(n) WHERE l IN $exclude)
WITH n ORDER BY elementId(n) LIMIT $limit
RETURN elementId(n) AS element, n[$key] AS key, toString(n[$text]) AS text
