// Purpose: migration to graph model 2: the constraints the previous model installed (named tgneo_ on a label that is not one of tgneo's own Tg labels), to drop before the new schema is installed under the same names.
// Params: none
// Returns: name STRING
SHOW CONSTRAINTS YIELD name, labelsOrTypes
WHERE name STARTS WITH 'tgneo_' AND any(label IN coalesce(labelsOrTypes, []) WHERE NOT label STARTS WITH 'Tg')
RETURN name
