"""The offline extractor: relations from encyclopedic prose, co-occurrences from any text, each with its evidence.

Pure: no database, no model. The prose passages are written for these tests, not taken from the sample;
the technical ones are quoted from pip's documentation (scripts/bench/quality/SOURCE.md), which no one
here wrote.
"""

from __future__ import annotations

import json

from tgneo.ingest.facts import parse_extraction
from tgneo.llm.base import Task
from tgneo.llm.offline import OfflineLLM
from tgneo.llm.offline.extraction import CO_OCCURS, extract


def triples(text: str) -> set[tuple[str, str, str]]:
    """The relations the rules read (co-occurrences left out)."""
    return {(f["s"], f["p"], f["o"]) for f in extract(text) if f["p"] != CO_OCCURS}


def co_occurring(text: str) -> set[tuple[str, str]]:
    return {(f["s"], f["o"]) for f in extract(text) if f["p"] == CO_OCCURS}


def test_subject_verb_object_with_particles_and_dates() -> None:
    found = triples("Ada Lovelace was born in London in 1815. She worked with Charles Babbage.")
    assert {("Ada Lovelace", "born in", "London"), ("Ada Lovelace", "born in", "1815"),
            ("Ada Lovelace", "worked with", "Charles Babbage")} <= found  # fmt: skip


def test_a_year_is_a_literal_and_a_name_is_not() -> None:
    facts = {(f["o"], f["literal"]) for f in extract("Alan Turing was born in London in 1912.") if f["p"] != CO_OCCURS}
    assert facts == {("London", False), ("1912", True)}


def test_he_and_she_mean_the_person_the_passage_is_about() -> None:
    found = triples(
        "Lise Meitner was an Austrian physicist. Her nephew Otto Frisch worked with her. "
        "She moved to Stockholm in 1938."
    )
    assert ("Otto Frisch", "nephew of", "Lise Meitner") in found
    assert ("Lise Meitner", "moved to", "Stockholm") in found


def test_a_lone_surname_means_the_full_name_met_before() -> None:
    found = triples("Niels Bohr founded the Institute for Theoretical Physics. Bohr lived in Copenhagen.")
    assert ("Niels Bohr", "lived in", "Copenhagen") in found


def test_copulas_give_types_and_relations() -> None:
    found = triples("Copenhagen is the capital of Denmark. Oxygen is a chemical element.")
    assert {("Copenhagen", "capital of", "Denmark"), ("Oxygen", "is a", "chemical element")} <= found


def test_asides_after_a_name_state_their_own_facts() -> None:
    found = triples("Enrico Fermi married Laura Capon, an Italian writer, in 1928. Rome, the capital of Italy, lies on "
                    "the Tiber.")  # fmt: skip
    assert {("Laura Capon", "is a", "Italian writer"), ("Enrico Fermi", "married", "Laura Capon"),
            ("Enrico Fermi", "married in", "1928"), ("Rome", "capital of", "Italy"),
            ("Rome", "lies on", "Tiber")} <= found  # fmt: skip


def test_coordinated_subjects_and_objects_each_get_the_fact() -> None:
    found = triples("Otto Hahn and Fritz Strassmann discovered nuclear fission and barium in 1938.")
    for person in ("Otto Hahn", "Fritz Strassmann"):
        assert {(person, "discovered", "nuclear fission"), (person, "discovered", "barium"),
                (person, "discovered in", "1938")} <= found  # fmt: skip


def test_passive_voice_keeps_its_agent_particle() -> None:
    assert ("Neptune", "discovered by", "Johann Galle") in triples("Neptune was discovered by Johann Galle.")


def test_negated_and_hedged_clauses_state_nothing() -> None:
    assert triples("Albert Einstein did not win the Nobel Prize in Chemistry. Einstein may have visited Oslo.") == set()


def test_a_new_clause_after_and_keeps_the_subject() -> None:
    found = triples("In 1905, Albert Einstein moved to Bern and worked at the Patent Office.")
    assert {("Albert Einstein", "moved to", "Bern"), ("Albert Einstein", "worked at", "Patent Office"),
            ("Albert Einstein", "moved in", "1905")} <= found  # fmt: skip


def test_headings_and_prize_names_are_read_as_such() -> None:
    found = triples("Awards\n\nDorothy Hodgkin received the Nobel Prize in Chemistry in 1964.")
    assert found == {("Dorothy Hodgkin", "received", "Nobel Prize in Chemistry"), ("Dorothy Hodgkin", "received in",
                                                                                   "1964")}  # fmt: skip


def test_the_offline_provider_answers_in_the_extraction_prompt_format_with_evidence() -> None:
    completion = OfflineLLM().complete(Task("extraction", {"text": "Ada Lovelace was born in London."}))
    evidence = "Ada Lovelace was born in London."
    assert json.loads(completion.text) == [
        {"s": "Ada Lovelace", "p": "born in", "o": "London", "literal": False, "evidence": evidence},
        {"s": "Ada Lovelace", "p": CO_OCCURS, "o": "London", "literal": False, "evidence": evidence},
    ]
    assert parse_extraction(completion.text).facts[0].o == "London"
    assert completion.model == "tgneo-offline" and completion.in_tokens > 0


PIP_CONFIG = (
    "Additionally, the environment variable `PIP_CONFIG_FILE` can be used to specify\n"
    "a configuration file that's loaded last, and whose values override the values\n"
    "set in the aforementioned files."
)


def test_identifiers_in_technical_prose_are_entities_kept_whole() -> None:
    pairs = co_occurring(PIP_CONFIG + " Setting this to `os.devnull` disables the loading of all configuration files.")
    assert ("environment variable", "PIP_CONFIG_FILE") in pairs and ("PIP_CONFIG_FILE", "configuration file") in pairs
    assert any("os.devnull" in pair for pair in pairs)
    found = co_occurring("Provenance is written to urn:graph:retrieval; run tg-show-explain-trace with --show-content.")
    names = {name for pair in found for name in pair}
    assert {"urn:graph:retrieval", "tg-show-explain-trace", "--show-content"} <= names
    assert not any(name.startswith("urn") and name != "urn:graph:retrieval" for name in names)


def test_every_fact_keeps_the_sentence_it_was_read_from() -> None:
    facts = extract(PIP_CONFIG + "\n\nThe recommended hash algorithm at the moment is sha256.")
    said = {" ".join(PIP_CONFIG.split()), "The recommended hash algorithm at the moment is sha256."}
    assert facts and all(f["evidence"] in said for f in facts)
    assert {f["evidence"] for f in facts if "sha256" in (f["s"], f["o"])} == {
        "The recommended hash algorithm at the moment is sha256."
    }


def test_technical_prose_gives_no_fragment_relations() -> None:
    """Rules written for encyclopedic prose must not turn technical sentences into fragments."""
    text = (
        "Pip has a number of features which make it useful in development workflows. "
        "And worse still, pip cannot even know that there's vital information in A's dependencies. "
        "Third party tools frequently call Pip for you and do indeed pass `--no-input`."
    )
    assert triples(text) == set()


def test_a_list_item_relates_its_terms_to_the_sentence_that_introduces_the_list() -> None:
    text = (
        "Multi-Processing Modules\n\nThe server is built with one of these multi-processing modules:\n\n"
        "- prefork -- `mpm_prefork`\n- worker -- `mpm_worker`\n- event -- `mpm_event`\n"
    )
    related = {f["s"] for f in extract(text) if f["p"] == CO_OCCURS and f["o"] == "mpm_event"}
    assert related == {"multi-processing", "modules"}  # the item alone names one term: it had no edge at all
