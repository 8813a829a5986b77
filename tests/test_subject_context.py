"""The subject from context, and answers that stop when the answer is given (issue 38, items 2 and 3).

Pure: no database, no model. The prose is written for these tests in the shapes of the sample corpus
(``tgneo/ingest/sample``) and of reference pages (a definition rendered as ``term: explanation``);
the demo's own answer is checked against Neo4j in ``tests/test_demo.py``.
"""

from __future__ import annotations

from tgneo.llm.base import Task
from tgneo.llm.offline import OfflineLLM
from tgneo.llm.offline.extraction import CO_OCCURS, extract
from tgneo.nlp.align import support
from tgneo.nlp.anaphora import in_context, named, subjects
from tgneo.nlp.segment import sentences

LATER_LIFE = (
    "Later life\n\n"
    "Ada Lovelace founded the Analytical Society in London in 1840. She also founded a school in Ockham in 1846. "
    "She died in Marylebone in 1852. Her daughter Anne Blunt wrote a book about horses."
)
OPTION = (
    "Options\n\n"
    "--no-build-isolation: Disable isolation when building a modern source distribution. This option is useful "
    "when the wheel cache is warm. It is called by the wheel builder."
)
PRIZES = (
    "The first Nobel Prizes were awarded in 1901. Marie Curie was the first person to win two Nobel Prizes. "
    "She was the first woman to win one of the Nobel Prizes."
)


def leaned(text: str) -> dict[str, str | None]:
    return {unit.text: subject for unit, subject in subjects(text)}


def test_a_pronoun_led_sentence_leans_on_the_person_named_before_it() -> None:
    assert leaned(LATER_LIFE)["She died in Marylebone in 1852."] == "Ada Lovelace"


def test_this_option_after_a_definition_term_leans_on_the_term() -> None:
    found = leaned(OPTION)
    assert found["This option is useful when the wheel cache is warm."] == "--no-build-isolation"
    assert found["It is called by the wheel builder."] == "--no-build-isolation"


def test_an_it_that_stands_for_nothing_leans_on_nothing() -> None:
    found = leaned("Hashes\n\npip checks hashes. It is possible to force the checking mode.")
    assert found["It is possible to force the checking mode."] is None


def test_the_extractor_states_the_fact_of_a_pronoun_led_sentence_about_its_subject() -> None:
    facts = extract(LATER_LIFE)
    died = [f for f in facts if (f["s"], f["p"], f["o"]) == ("Ada Lovelace", "died in", "Marylebone")]
    assert [f["evidence"] for f in died] == ["She died in Marylebone in 1852."]


def test_the_co_occurrences_of_a_leaning_sentence_include_its_subject() -> None:
    pairs = {(f["s"], f["o"]) for f in extract(OPTION) if f["p"] == CO_OCCURS and f["evidence"].startswith("This")}
    assert ("--no-build-isolation", "wheel cache") in pairs


def test_a_quote_names_the_subject_and_its_sentence_still_supports_it() -> None:
    sentence = "She died in Marylebone in 1852."
    quoted = named(sentence, "Ada Lovelace")
    assert quoted == "She (Ada Lovelace) died in Marylebone in 1852."
    assert support(sentence, quoted) >= 0.5  # the citation check of scripts/bench/quality.py
    assert in_context(sentence, ("Ada Lovelace", "Marylebone")) == quoted  # an edge's evidence, as GraphRAG hands it


def test_document_rag_finds_and_names_the_subject_of_a_pronoun_led_sentence() -> None:
    task = Task("docrag-synthesis", {"question": "Where did Ada Lovelace die?", "passages": [{"text": LATER_LIFE}]})
    assert OfflineLLM().complete(task).text == "She (Ada Lovelace) died in Marylebone in 1852."


def test_graphrag_synthesis_finds_the_evidence_that_names_its_subject() -> None:
    evidence = [
        "Ada Lovelace founded the Analytical Society in London in 1840.",
        "She (Ada Lovelace) died in Marylebone in 1852.",
        "Her (Ada Lovelace) daughter Anne Blunt wrote a book about horses.",
    ]
    inputs = {"question": "Where did Ada Lovelace die?", "facts": [], "evidence": evidence}
    assert OfflineLLM().complete(Task("synthesis", inputs)).text == "She (Ada Lovelace) died in Marylebone in 1852."


def test_an_answer_stops_when_further_sentences_hold_nothing_more_of_the_question() -> None:
    task = Task("docrag-synthesis", {"question": "When were the first Nobel Prizes awarded?",
                                     "passages": [{"text": PRIZES}]})  # fmt: skip
    assert OfflineLLM().complete(task).text == "The first Nobel Prizes were awarded in 1901."


def test_a_two_part_question_gets_one_sentence_for_each_part() -> None:
    born = "Ada Lovelace was born as Augusta Ada Byron. She was born in London in 1815."
    passages = [{"text": f"{born}\n\n{LATER_LIFE}"}]
    question = "Where was Ada Lovelace born and when did she die?"
    text = OfflineLLM().complete(Task("docrag-synthesis", {"question": question, "passages": passages})).text
    parts = {"She (Ada Lovelace) was born in London in 1815.", "She (Ada Lovelace) died in Marylebone in 1852."}
    assert set(sentences(text)) == parts  # one for each part, best first, whichever the embedder ranks first
