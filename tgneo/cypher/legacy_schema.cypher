// Purpose: the indexes and constraints tgneo's previous graph model installed (named tgneo_ on labels that are not tgneo's own Tg labels: Resource, Statement, Chunk, Question, Content, Import): a database that has them holds data only tgneo db migrate can read.
// Params: none
// Returns: name STRING, labels LIST<STRING>
SHOW INDEXES YIELD name, labelsOrTypes
WHERE name STARTS WITH 'tgneo_' AND any(label IN coalesce(labelsOrTypes, []) WHERE NOT label STARTS WITH 'Tg')
RETURN name, labelsOrTypes AS labels
