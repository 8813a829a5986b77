"""tgneo.nlp on text none of us wrote: sentences with their offsets, identifiers kept whole, ranking, support.

Pure: no database, no model. The technical passages are pip's documentation (scripts/bench/quality/SOURCE.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tgneo.ingest.readers import decode
from tgneo.nlp.align import rank, support
from tgneo.nlp.phrases import identifiers, key_terms, terms
from tgneo.nlp.segment import sentences, units

CORPUS = Path(__file__).resolve().parent.parent / "scripts" / "bench" / "quality" / "pip-24.2-topics"
SQLITE = CORPUS.parent / "sqlite-3.40.1-docs"
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def part_text(name: str, label: str) -> str:
    doc = decode(name, (CORPUS / name).read_bytes())
    return next(p.text for p in doc.parts if p.label == label)


def test_every_unit_of_every_corpus_section_points_at_its_own_text() -> None:
    for path in [*sorted(CORPUS.glob("*.md")), *sorted(SQLITE.glob("*.html"))]:
        for part in decode(path.name, path.read_bytes()).parts:
            for unit in units(part.text):
                if unit.kind in ("sentence", "item", "heading"):
                    span = part.text[unit.start : unit.end]
                    # a sentence that introduces code holds the code's lines, not the fences between
                    shown = " ".join(line for line in span.split("\n") if not FENCE.match(line))
                    assert unit.text.split() in (span.split(), shown.split()), (path.name, unit)
                else:
                    assert unit.start < unit.end <= len(part.text)


def test_sentences_split_before_lower_case_words_but_not_after_abbreviations_or_inside_identifiers() -> None:
    text = "It is stored in the cache. pip will use it, e.g. for `origin.json` files in v24.2. Done."
    assert sentences(text) == [
        "It is stored in the cache.",
        "pip will use it, e.g. for `origin.json` files in v24.2.",
        "Done.",
    ]


def test_a_sentence_ends_before_a_code_span_or_a_quote_even_after_a_short_word() -> None:
    text = 'Linux: ~/.cache/pip. `pip cache list` lists wheels. It is "fine". "Quoted" too.'
    expected = ["Linux: ~/.cache/pip.", "`pip cache list` lists wheels.", 'It is "fine".', '"Quoted" too.']
    assert sentences(text) == expected


def test_a_short_code_block_is_one_unit_labelled_by_the_line_before_it() -> None:
    found = [u.text for u in units(part_text("caching.md", "Default paths")) if u.kind == "code"]
    assert found[:2] == ["Linux: ~/.cache/pip", "MacOS: ~/Library/Caches/pip"]


def test_a_sentence_ending_in_a_colon_holds_the_code_it_introduces() -> None:
    text = "Intro.\n\nTo see it, use the following command:\n\n```{pip-cli}\n$ pip cache dir\n```\n\nDone."
    found = units(text)
    assert [u.text for u in found] == ["Intro.", "To see it, use the following command: $ pip cache dir", "Done."]
    assert text[found[1].start : found[1].end].endswith("$ pip cache dir")  # its span reaches the end of the code


def test_of_a_long_code_block_a_sentence_holds_the_first_lines() -> None:
    code = "\n".join(f"INSERT INTO t VALUES({n}, 'a rather long value for the row number {n}');" for n in range(8))
    text = f"Fill the table as follows:\n```\n{code}\n```"
    (unit,) = units(text)
    assert unit.text.startswith("Fill the table as follows: INSERT INTO t VALUES(0,") and "VALUES(2," not in unit.text
    assert text[unit.start : unit.end].endswith("row number 1');")


def test_each_sentence_of_a_definition_is_led_by_its_term() -> None:
    text = "`work_mem` (`integer`): Sets the memory of a sort.\nThe default value is `4MB`. It can be set per role."
    found = units(text)
    assert [u.text for u in found] == [
        "`work_mem` (`integer`): Sets the memory of a sort.",
        "`work_mem` (`integer`): The default value is `4MB`.",
        "`work_mem` (`integer`): It can be set per role.",
    ]
    assert text[found[1].start : found[1].end] == "The default value is `4MB`."  # the span is the sentence's own
    assert sentences("To do so: run it. Then stop.") == ["To do so: run it.", "Then stop."]  # no code: no term


def test_inline_code_never_ends_a_sentence() -> None:
    assert sentences("Call `os.path. Join` first. Then stop.") == ["Call `os.path. Join` first.", "Then stop."]


def test_list_items_and_table_rows_are_units_of_their_own() -> None:
    kinds = {u.kind for u in units(part_text("dependency-resolution.md", "Understanding your error message"))}
    assert {"item", "sentence"} <= kinds  # its table's rows reach the segmenter as statements (readers/tables.py)
    assert [u.kind for u in units("Operator | Description | Example\n`>` | Greater. | `>3.1`")] == ["row", "row"]


@pytest.mark.parametrize(
    ("text", "identifier"),
    [
        ("Set the environment variable `PIP_CONFIG_FILE` to a path.", "PIP_CONFIG_FILE"),
        ("Provenance is written to urn:graph:retrieval.", "urn:graph:retrieval"),
        ("Disable it with --no-cache-dir, as before.", "--no-cache-dir"),
        ("It calls get_preference first.", "get_preference"),
        ("pip reports ResolutionImpossible then.", "ResolutionImpossible"),
        ("Hashes are read from origin.json in each entry.", "origin.json"),
        ("The cache lives in ~/.cache/pip on Linux.", "~/.cache/pip"),
        ("Run tg-show-explain-trace on it.", "tg-show-explain-trace"),
        ("The recommended algorithm is sha256.", "sha256"),
        ("Use `pip cache dir` to see it.", "pip cache dir"),
    ],
)
def test_identifiers_are_found_whole(text: str, identifier: str) -> None:
    assert identifier in [t.text for t in identifiers(text)]


def test_terms_are_identifiers_names_and_noun_phrases_without_fragments() -> None:
    found = [
        t.text
        for t in terms("Additionally, the environment variable `PIP_CONFIG_FILE` names a file that's loaded last.")
    ]
    assert found == ["environment variable", "PIP_CONFIG_FILE", "file"]
    assert [t.text for t in terms("Marie Curie and Pierre Curie discovered polonium and radium in 1898.")] == [
        "Marie Curie", "Pierre Curie", "polonium", "radium",
    ]  # fmt: skip


def test_an_identifier_counts_once_among_key_terms() -> None:
    assert key_terms("Enable hash-checking mode.") == {"hash-checking", "enable", "mode"}
    assert "--timeout" in key_terms("PIP_TIMEOUT=60 is the same as --timeout=60")


def test_the_sentence_that_holds_what_is_asked_ranks_first() -> None:
    candidates = [
        "pip's caching behaviour can be undesirable.",
        "pip's caching behaviour is disabled by passing the `--no-cache-dir` option.",
        "Marie Curie discovered polonium.",
    ]
    scores = rank("Which option disables pip's caching?", candidates)
    assert scores[1] > scores[0] > scores[2] == 0.0


def test_support_is_the_share_of_an_answer_sentence_s_key_terms_a_sentence_holds() -> None:
    evidence = "pip's caching behaviour is disabled by passing the `--no-cache-dir` option."
    assert support(evidence, evidence) == 1.0
    assert support(evidence, "Passing --no-cache-dir disables pip's caching.") >= 0.8
    assert support(evidence, "Einstein played the violin.") == 0.0
