// Purpose: (Browser) an answer's verification: each counterfactual check of a question's answer, newest first, with its verdict, sufficiency and judge, the answer step it checked, the answer sentences that stand without their evidence, and the selections it found necessary (leaving one out lost at least $necessary of the answer) with the fact, chunk or observation each brought; necessity lists every selection a leave-one-out re-run was made for.
// Params: $workspace, $collection, $uri, $necessary
// Returns: verification NODE, verdict STRING, sufficiency FLOAT, model STRING, checkedAt DATETIME, checked PATH, standsWithout LIST<PATH>, necessary LIST<PATH>, necessity LIST<MAP> (selection, necessity)
MATCH (q:TgResource {workspace: $workspace, collection: $collection, uri: $uri})
WHERE q:TgExplain
MATCH checked = (v:Verification {workspace: $workspace, collection: $collection})-[:WAS_DERIVED_FROM]->(answer:TgExplain)
WHERE EXISTS { (answer)-[:WAS_DERIVED_FROM]->{1,64}(q) }
RETURN v AS verification, v.verdict AS verdict, v.sufficiency AS sufficiency, v.llmModel AS model,
  v.generatedAtTime AS checkedAt, checked,
  COLLECT { MATCH p = (v)-[:STANDS_WITHOUT]->(:AnswerSentence) RETURN p } AS standsWithout,
  COLLECT { MATCH p = (v)-[:COUNTERFACTUAL]->(c:Counterfactual)-[:ABLATED]->()-[:EDGE|DOCUMENT]->()
            WHERE c.necessity >= $necessary
            RETURN p } AS necessary,
  COLLECT { MATCH (v)-[:COUNTERFACTUAL]->(c:Counterfactual)-[:ABLATED]->(sel)
            WHERE c.necessity IS NOT NULL
            RETURN {selection: sel.uri, necessity: c.necessity} ORDER BY c.necessity DESC, sel.uri } AS necessity
ORDER BY checkedAt DESC, verification.uri
