// Purpose: a whole trace in one round trip: the root and every step derived from it (at any depth, sub-traces included, found breadth-first from the root), each with its relationships, selected edges (labels, source chains), chunks, entities, content, retrieval hits (which index found each chunk, at which rank), the parts of a two-part question (a Grounding's, each with its concepts; which part each hit and selection served) and answer sentences (each with the evidence candidates of the selections it derives from: sentences and where they were read), and a verification's sentences that stand without their evidence and a counterfactual's ablated selections. At most $max_steps steps (shallowest first) are detailed; total_steps says how many there are.
// Params: $workspace, $collection, $uri, $max_steps
// Returns: root MAP (uri, labels, props), total_steps INTEGER, steps LIST<MAP> (uri, labels, props, depth, parents, edges, chunks, selected_chunks, entities, thoughts, documents, sentences, hits, question_parts, ablated, stands_without)
MATCH (root:TgResource {workspace: $workspace, collection: $collection, uri: $uri})
WHERE root:TgExplain
CALL (root) {
  MATCH p = SHORTEST 1 (root)<-[:WAS_DERIVED_FROM]-+(step:TgExplain)
  RETURN step, length(p) AS depth
  UNION
  RETURN root AS step, 0 AS depth
}
WITH root, step, min(depth) AS depth
ORDER BY depth, step.uri
WITH root, collect(step {.uri, depth: depth, node: step}) AS all_steps
UNWIND all_steps[0..$max_steps] AS member
WITH root, size(all_steps) AS total_steps, member.node AS step, member.depth AS depth
WITH root, total_steps, collect({
  uri: step.uri,
  labels: labels(step),
  props: properties(step),
  depth: depth,
  parents: [(step)-[:WAS_DERIVED_FROM]->(parent) | parent.uri],
  edges: [(step)-[:SELECTED_EDGE]->(sel)-[:EDGE]->(st:TgStatement) | {
    selection: sel.uri, concept: sel.concept, score: sel.score, reasoning: sel.reasoning,
    parts: [(sel)-[:FOR_PART]->(qp:QuestionPart) | qp.partIndex],
    statement: {
      id: st.id, s: st.s, s_kind: st.s_kind, p: st.p, o: st.o, o_kind: st.o_kind,
      o_datatype: st.o_datatype, o_lang: st.o_lang,
      s_label: COLLECT { MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: st.s})
                         WHERE n.name IS NOT NULL RETURN CASE WHEN valueType(n.name) STARTS WITH 'LIST' THEN toString(reduce(m = head(n.name), x IN n.name | CASE WHEN x < m THEN x ELSE m END)) ELSE toString(n.name) END }[0],
      p_label: COLLECT { MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: st.p})
                         WHERE n.name IS NOT NULL RETURN CASE WHEN valueType(n.name) STARTS WITH 'LIST' THEN toString(reduce(m = head(n.name), x IN n.name | CASE WHEN x < m THEN x ELSE m END)) ELSE toString(n.name) END }[0],
      o_label: COLLECT { MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: st.o})
                         WHERE st.o_kind = 'iri' AND n.name IS NOT NULL RETURN CASE WHEN valueType(n.name) STARTS WITH 'LIST' THEN toString(reduce(m = head(n.name), x IN n.name | CASE WHEN x < m THEN x ELSE m END)) ELSE toString(n.name) END }[0],
      sources: COLLECT {
        MATCH (st)<-[contains:CONTAINS]-(sg:TgSubgraph)
        OPTIONAL MATCH chain = (sg)-[:WAS_DERIVED_FROM]->{1,8}(doc:TgDocument)
        RETURN {subgraph: sg.uri, evidence: coalesce(contains.sourceText, sg.sourceText),
                chain: [n IN coalesce(nodes(chain), [sg]) | {uri: n.uri, labels: labels(n), props: properties(n)}]}
        ORDER BY sg.uri
      }
    }
  }],
  chunks: [(step)-[:SELECTED_CHUNK]->(sel:ChunkSelection) | {
    selection: sel.uri, score: sel.score, parts: [(sel)-[:FOR_PART]->(qp:QuestionPart) | qp.partIndex],
    chunk: [(sel)-[:DOCUMENT]->(c) | {uri: c.uri, text: c.text,
            chain: COLLECT { MATCH (c)-[:WAS_DERIVED_FROM]->{1,8}(d:TgDocument) RETURN DISTINCT d.uri }}][0]
  }],
  selected_chunks: [(step)-[:SELECTED_CHUNK]->(c) WHERE NOT c:ChunkSelection | c.uri],
  entities: [(step)-[:ENTITY]->(e) | {uri: e.uri,
             label: CASE WHEN e.name IS NULL THEN null
                         WHEN valueType(e.name) STARTS WITH 'LIST'
                         THEN toString(reduce(m = head(e.name), x IN e.name | CASE WHEN x < m THEN x ELSE m END))
                         ELSE toString(e.name) END}],
  thoughts: [(step)-[:THOUGHT]->(t) | t.uri],
  sentences: [(step)-[:SENTENCE]->(a:AnswerSentence) | {
    uri: a.uri, index: a.sentenceIndex, text: a.value, support: a.support,
    evidence: [(a)-[:WAS_DERIVED_FROM]->(sel) | {
      selection: sel.uri,
      candidates: COLLECT {
        MATCH (sel)-[:EDGE]->(:TgStatement)<-[contains:CONTAINS]-(sg:TgSubgraph)-[:WAS_DERIVED_FROM]->(c:TgChunk)
        RETURN {text: coalesce(contains.sourceText, sg.sourceText, c.text), chunk: c.uri,
                section: COLLECT { MATCH (c)-[:WAS_DERIVED_FROM]->(part) WHERE part:TgPage OR part:TgSection
                                   RETURN part.label LIMIT 1 }[0],
                document: COLLECT { MATCH (c)-[:WAS_DERIVED_FROM]->{1,4}(d:TgDocument) RETURN d.uri LIMIT 1 }[0],
                title: COLLECT { MATCH (c)-[:WAS_DERIVED_FROM]->{1,4}(d:TgDocument) RETURN d.title LIMIT 1 }[0]}
      } + COLLECT {
        MATCH (sel)-[:DOCUMENT]->(c:TgChunk)
        RETURN {text: c.text, chunk: c.uri,
                section: COLLECT { MATCH (c)-[:WAS_DERIVED_FROM]->(part) WHERE part:TgPage OR part:TgSection
                                   RETURN part.label LIMIT 1 }[0],
                document: COLLECT { MATCH (c)-[:WAS_DERIVED_FROM]->{1,4}(d:TgDocument) RETURN d.uri LIMIT 1 }[0],
                title: COLLECT { MATCH (c)-[:WAS_DERIVED_FROM]->{1,4}(d:TgDocument) RETURN d.title LIMIT 1 }[0]}
      }
    }]
  }],
  documents: [(step)-[:DOCUMENT]->(d) WHERE NOT step:ChunkSelection | {uri: d.uri, text: d.text, contentType: d.contentType}],
  hits: [(step)-[:HIT]->(h:RetrievalHit) | {
    rank: h.rank, item: [(h)-[:RETRIEVED]->(c) | c.uri][0], fused: h.fusedScore,
    vector_rank: h.vectorRank, vector_score: h.vectorScore, text_rank: h.textRank, text_score: h.textScore,
    parts: [(h)-[:FOR_PART]->(qp:QuestionPart) | qp.partIndex]
  }],
  question_parts: [(step)-[:QUESTION_PART]->(qp:QuestionPart) | {
    uri: qp.uri, index: qp.partIndex, text: qp.value, concepts: coalesce(qp.concept, [])
  }],
  ablated: [(step)-[:ABLATED]->(x) | x.uri],
  stands_without: [(step)-[:STANDS_WITHOUT]->(a:AnswerSentence) | a.sentenceIndex]
}) AS steps
RETURN {uri: root.uri, labels: labels(root), props: properties(root)} AS root, total_steps, steps
