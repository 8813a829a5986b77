// Purpose: migration to graph model 2, one batch: up to $batch nodes of the previous model labelled $label (Statement, Import, ImportUndo or RetentionPolicy, with a workspace: tgneo's own) are labelled :Tgneo and $new instead.
// Params: $label, $new, $batch
// Returns: done INTEGER (0: none left)
MATCH (n:$($label))
WHERE n.workspace IS NOT NULL AND n.collection IS NOT NULL
WITH n LIMIT $batch
SET n:Tgneo:$($new)
REMOVE n:$($label)
RETURN count(*) AS done
