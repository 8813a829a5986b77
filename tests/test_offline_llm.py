"""The offline provider: deterministic, honest about what it is, and answering in each prompt's format."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.llm_tasks import INPUTS
from tgneo.llm.base import Completion, LLMError, Task
from tgneo.llm.offline import MODEL, OfflineLLM
from tgneo.llm.offline.hashed import DIMENSIONS, cosine
from tgneo.llm.offline.tokens import count
from tgneo.llm.parsing import json_answer
from tgneo.llm.prompts import render
from tgneo.nlp.segment import sentences
from tgneo.nlp.words import names

QUESTION = "What did Marie Curie discover?"
EDGES = [
    {"id": "e1", "text": "Marie Curie, discovered, Polonium"},
    {"id": "e2", "text": "Pierre Curie, born in, Paris"},
]
TOOLS = [{"name": n, "description": "", "arguments": {}} for n in ("knowledge-query", "document-query", "calculator")]
SAMPLE_INPUTS = INPUTS


@pytest.fixture(scope="module")
def llm() -> OfflineLLM:
    return OfflineLLM()


def test_the_offline_model_names_itself_and_counts_its_own_tokens(llm: OfflineLLM) -> None:
    task = Task("grounding", {"question": QUESTION})
    call = llm.complete(task)
    assert call.model == MODEL == "tgneo-offline"
    assert call.in_tokens == count(render(task)) and call.out_tokens == count(call.text)


def test_the_same_task_gives_the_same_answer(llm: OfflineLLM) -> None:
    task = Task("edge-scoring", SAMPLE_INPUTS["edge-scoring"])
    assert llm.complete(task).text == llm.complete(task).text


def test_grounding_names_the_question_s_names_and_content_words(llm: OfflineLLM) -> None:
    assert llm.complete(Task("grounding", {"question": QUESTION})).text.splitlines() == ["marie curie", "discover"]


def test_edge_scoring_prefers_the_edge_sharing_the_question_s_words(llm: OfflineLLM) -> None:
    scores = {
        s["id"]: s["score"] for s in json.loads(llm.complete(Task("edge-scoring", SAMPLE_INPUTS["edge-scoring"])).text)
    }
    assert scores["e1"] > scores["e2"] > 0


def test_reasoning_names_the_concept_and_the_edge(llm: OfflineLLM) -> None:
    (reason,) = json.loads(
        llm.complete(Task("edge-reasoning", {**SAMPLE_INPUTS["edge-reasoning"], "edges": EDGES[:1]})).text
    )
    assert reason["concept"] == "marie curie" and "Marie Curie, discovered, Polonium" in reason["reasoning"]


def test_reasoning_for_an_edge_no_concept_names_says_so_without_claiming_a_match(llm: OfflineLLM) -> None:
    edge = {"id": "e9", "text": "Vistula, flows through, Krakow", "score": 0.12}
    inputs = {**SAMPLE_INPUTS["edge-reasoning"], "concepts": ["marie curie"], "edges": [edge]}
    (reason,) = json.loads(llm.complete(Task("edge-reasoning", inputs)).text)
    assert reason["reasoning"].startswith("No word of any concept appears in it; it scored 0.12")
    assert f"nearest concept: '{reason['concept']}'" in reason["reasoning"] and "Matches" not in reason["reasoning"]


def test_synthesis_without_evidence_states_only_the_facts_it_was_given(llm: OfflineLLM) -> None:
    inputs = {"question": QUESTION, "facts": ["Marie Curie discovered Polonium"], "evidence": []}
    assert (
        llm.complete(Task("synthesis", inputs)).text
        == "According to the knowledge graph: Marie Curie discovered Polonium."
    )


def test_synthesis_quotes_the_evidence_that_answers_best_first_each_once(llm: OfflineLLM) -> None:
    evidence = [
        "Marie Curie and Pierre Curie discovered polonium and radium in 1898.",
        "Marie Curie and Pierre Curie discovered polonium and radium in 1898.",
        "Marie Curie was born in Warsaw.",
        "The couple worked in a laboratory.",
    ]
    inputs = {"question": QUESTION, "facts": ["Marie Curie discovered Polonium"], "evidence": evidence}
    text = llm.complete(Task("synthesis", inputs)).text
    assert (
        text == "Marie Curie and Pierre Curie discovered polonium and radium in 1898."  # once; the rest answers less
    )


def test_document_synthesis_quotes_the_matching_sentences(llm: OfflineLLM) -> None:
    passages = [
        {
            "id": "c",
            "text": "Marie Curie was born in Warsaw. Marie Curie discovered polonium in 1898. Marie Curie saw rain.",
        }
    ]
    text = llm.complete(
        Task("docrag-synthesis", {"question": "What did Marie Curie discover?", "passages": passages})
    ).text
    assert text == "Marie Curie discovered polonium in 1898."  # the name is in every sentence: the verb decides


def test_a_stream_joins_back_to_the_whole_answer_and_returns_its_usage(llm: OfflineLLM) -> None:
    facts = ["Marie Curie discovered Polonium"] * 3
    stream = llm.stream(Task("synthesis", {"question": QUESTION, "facts": facts, "evidence": []}))
    pieces: list[str] = []
    while True:
        try:
            pieces.append(next(stream))
        except StopIteration as stop:
            whole: Completion = stop.value
            break
    assert len(pieces) > 1 and "".join(pieces) == whole.text and whole.out_tokens == count(whole.text)


@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        ("Compare Marie Curie and Lise Meitner", "supervisor"),
        ("Summarise the discoveries of Marie Curie", "plan-then-execute"),
        ("What is 1911 - 1867?", "react"),
        ("Who discovered polonium?", "react"),
        ("How old was Marie Curie when she won her first Nobel Prize?", "react"),  # "first" asks for no plan here
    ],
)
def test_the_router_picks_a_pattern_from_the_question(llm: OfflineLLM, question: str, pattern: str) -> None:
    assert json.loads(llm.complete(Task("router", {"question": question, "patterns": []})).text)["pattern"] == pattern


def test_react_uses_the_calculator_for_arithmetic_and_another_tool_after_a_failure(llm: OfflineLLM) -> None:
    first = json.loads(llm.complete(Task("react", {"question": "What is 7 / 0?", "tools": TOOLS, "history": []})).text)
    assert (first["action"], first["arguments"]) == ("calculator", {"expression": "7 / 0"})
    failed = [{"action": "calculator", "arguments": first["arguments"], "observation": "", "error": "division by zero"}]
    second = json.loads(
        llm.complete(Task("react", {"question": "What is 7 / 0?", "tools": TOOLS, "history": failed})).text
    )
    assert second["action"] == "knowledge-query" and "division by zero" in second["thought"]


AGE = "How old was Marie Curie when she won her first Nobel Prize?"
BORN, PRIZE = "When was Marie Curie born?", "What year was it when Marie Curie won her Nobel Prize?"


def _react(llm: OfflineLLM, question: str, *history: tuple[str, dict[str, Any], str]) -> dict[str, Any]:
    steps = [{"action": a, "arguments": args, "observation": o, "error": None} for a, args, o in history]
    step: dict[str, Any] = json.loads(
        llm.complete(Task("react", {"question": question, "tools": TOOLS, "history": steps})).text
    )
    return step


def test_react_looks_up_each_fact_a_computed_question_needs_then_calls_the_calculator(llm: OfflineLLM) -> None:
    assert _react(llm, AGE)["arguments"] == {"question": BORN}
    born = ("knowledge-query", {"question": BORN}, "Marie Curie was born in Warsaw in 1867.")
    assert _react(llm, AGE, born)["arguments"] == {"question": PRIZE}
    prize = ("knowledge-query", {"question": PRIZE}, "She won the Nobel Prize in Chemistry in 1911. "
             "Marie Curie won the Nobel Prize in Physics in 1903.")  # fmt: skip
    assert _react(llm, AGE, born, prize) | {"thought": ""} == {
        "thought": "", "action": "calculator", "arguments": {"expression": "1903 - 1867"},  # her *first* prize
    }  # fmt: skip


def test_react_answers_a_computed_question_with_the_sentences_that_gave_its_numbers(llm: OfflineLLM) -> None:
    born = ("knowledge-query", {"question": BORN}, "Marie Curie was born in Warsaw in 1867.")
    prize = ("knowledge-query", {"question": PRIZE}, "Marie Curie won the Nobel Prize in Physics in 1903.")
    final = _react(llm, AGE, born, prize, ("calculator", {"expression": "1903 - 1867"}, "36"))["final_answer"]
    assert final == (
        "Marie Curie was born in Warsaw in 1867. Marie Curie won the Nobel Prize in Physics in 1903. 1903 - 1867 = 36."
    )


def test_react_asks_the_documents_when_the_graph_s_answer_names_no_number(llm: OfflineLLM) -> None:
    vague = ("knowledge-query", {"question": BORN}, "Marie Curie was born as Maria Sklodowska.")
    assert _react(llm, AGE, vague) | {"thought": ""} == {
        "thought": "",
        "action": "document-query",
        "arguments": {"question": BORN},
    }


def test_agent_synthesis_says_the_findings_never_the_goals(llm: OfflineLLM) -> None:
    results = [
        {"goal": "What does the knowledge graph say about Marie Curie?",
         "text": "Marie Curie discovered polonium. Marie Curie was born in Warsaw."},
        {"goal": "Who discovered polonium?", "text": "Marie Curie discovered polonium. Polonium is radioactive."},
    ]  # fmt: skip
    task = Task("agent-synthesis", {"question": "Who discovered polonium?", "results": results})
    assert llm.complete(task).text == "Marie Curie discovered polonium."  # one part, one sentence, said once


def test_agent_synthesis_answers_each_part_of_a_two_part_question_once(llm: OfflineLLM) -> None:
    results = [
        {"goal": "Where was Marie Curie born?", "text": "Marie Curie was born in Warsaw. She studied in Paris."},
        {"goal": "What did she discover?", "text": "She discovered polonium and radium. Polonium is radioactive."},
    ]
    question = "Where was Marie Curie born and what did she discover?"
    task = Task("agent-synthesis", {"question": question, "results": results})
    assert llm.complete(task).text == "Marie Curie was born in Warsaw. She discovered polonium and radium."


def test_hashed_embeddings_are_normalised_and_lexically_similar() -> None:
    llm = OfflineLLM(embedding_model="tgneo-offline-hash-256")
    vectors = llm.embed(["Marie Curie discovered polonium", "polonium discovery by Curie", "the Eiffel tower"]).vectors
    assert all(len(v) == DIMENSIONS and abs(cosine(v, v) - 1) < 1e-9 for v in vectors)
    assert cosine(vectors[0], vectors[1]) > 0.5 > cosine(vectors[0], vectors[2])


def test_names_are_runs_of_capitalised_words() -> None:
    assert names("Compare Marie Curie and the University of Paris's work") == ["Marie Curie", "University of Paris"]


def test_sentences_split_at_terminal_punctuation() -> None:
    assert sentences("She was born in 1867. She died in 1934!  Why?") == [
        "She was born in 1867.",
        "She died in 1934!",
        "Why?",
    ]


def test_a_structured_answer_is_read_through_code_fences_and_garbage_is_refused() -> None:
    fenced = Completion('```json\n[{"id": "e1", "score": 0.5}]\n```', 1, 1, "m", 0)
    assert json_answer(fenced, "edge-scoring", list) == [{"id": "e1", "score": 0.5}]
    with pytest.raises(LLMError, match=r"edge-scoring stage did not answer a JSON array \(model m: 'I think so'\)"):
        json_answer(Completion("I think so", 1, 1, "m", 0), "edge-scoring", list)


# -- quotes that read as text (issue 48, item 5) --------------------------------------------------------------------


@pytest.mark.parametrize(
    "evidence",
    [
        "tg-show-explain-trace handles a trace's explain messages as they arrive",
        "uri_map maps each TrustGraph URI to the node that holds it",
        "get_labelgraph() now returns the label graph of the whole collection",
        "--no-deps installs the named packages without their dependencies",
    ],
)
def test_an_identifier_opening_a_quote_keeps_its_case_and_punctuation(llm: OfflineLLM, evidence: str) -> None:
    question = "What does " + evidence.split()[0] + " do?"
    answer = llm.complete(Task("synthesis", {"question": question, "facts": [], "evidence": [evidence]})).text
    assert answer == evidence + "."  # not "Tg-show-explain-trace …", "Uri_map …", "Get_labelgraph() …"


def test_a_sentence_still_begins_with_a_capital_when_its_first_word_is_prose(llm: OfflineLLM) -> None:
    evidence = ["the default is 8096 bytes"]
    task = Task("synthesis", {"question": "What is the default buffer size?", "facts": [], "evidence": evidence})
    assert llm.complete(task).text == "The default is 8096 bytes."


def test_a_run_of_table_cells_is_never_quoted(llm: OfflineLLM) -> None:
    cells = "explain_graph | str | None = None # Named graph (e.g., urn:graph:retrieval) | | | | | explain_triples"
    prose = "The explain_graph field names the named graph (e.g., urn:graph:retrieval) that holds the explain triples."
    question = "What type is explain_graph?"
    passages = [{"text": f"Message fields\n\n{cells}\n\n{prose}"}]
    assert llm.complete(Task("docrag-synthesis", {"question": question, "passages": passages})).text == prose
    evidence = [cells, prose]  # GraphRAG's evidence: a row a text reader left as pipes
    assert llm.complete(Task("synthesis", {"question": question, "facts": [], "evidence": evidence})).text == prose


def test_a_long_sentence_s_clause_keeps_an_identifier_s_own_colons(llm: OfflineLLM) -> None:
    sentence = (
        "If the filename is :memory: then a private, temporary in-memory database is created for the connection and "
        "it will vanish when the database connection is closed, and future versions of SQLite might make use of "
        "additional special filenames that begin with the colon character."
    )
    task = Task("docrag-synthesis", {"question": "Which filename opens a private temporary in-memory database?",
                                     "passages": [{"text": sentence}]})  # fmt: skip
    assert ":memory: then a private, temporary in-memory database is created" in llm.complete(task).text


def test_a_sentence_introducing_a_list_is_quoted_with_the_item_that_answers(llm: OfflineLLM) -> None:
    text = (
        "Choosing an MPM\n\nApache httpd ships with several multi-processing modules. One of them is selected at "
        "build time with an argument to the configure script:\n\n- `--with-mpm=prefork` selects the prefork module\n"
        "- `--with-mpm=worker` selects the worker module\n- `--with-mpm=event` selects the event module"
    )
    question = "Which argument to the configure script selects the event module at build time?"
    answer = llm.complete(Task("docrag-synthesis", {"question": question, "passages": [{"text": text}]})).text
    assert "the configure script:" in answer and "`--with-mpm=event` selects the event module." in answer
    assert "prefork" not in answer and "worker" not in answer  # the item that answers, not the whole list


def test_the_code_a_sentence_introduces_is_never_quoted_as_a_sentence_of_its_own(llm: OfflineLLM) -> None:
    text = (
        "Restarting\n\nTo make the running server re-read its configuration files without dropping the connections "
        "that are still open, send the parent process the graceful signal in one of the following ways:\n```\n"
        "# with the control script, as root\n$ apachectl -k graceful\n# or with kill, by its process id\n"
        "$ kill -USR1 `cat /usr/local/apache2/logs/httpd.pid`\n```\n"
    )
    question = "How is a graceful restart requested with the control script as root?"
    answer = llm.complete(Task("docrag-synthesis", {"question": question, "passages": [{"text": text}]})).text
    assert answer.startswith("To make the running server re-read its configuration files")  # not "# with the …"
    assert "$ apachectl -k graceful" in answer  # the code stays with the sentence that introduces it


def test_a_quote_opening_with_an_identifier_is_a_sentence_of_its_own_for_its_citation(llm: OfflineLLM) -> None:
    evidence = ["The helper is found on `PATH`.", "uri_map maps each TrustGraph URI to the node that holds it."]
    task = Task("synthesis", {"question": "What does uri_map map, and where is the helper found?", "facts": [],
                              "evidence": evidence})  # fmt: skip
    answer = llm.complete(task).text
    assert sorted(sentences(answer)) == sorted(evidence)  # each answer sentence is one quote, cited alone
