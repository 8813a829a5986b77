"""``tgneo load`` as a script sees it: questions on stdout, one summary line on stderr, one line per
skipped file, exit status 1 when something was skipped, and a plain answer for an empty collection."""

from __future__ import annotations

import re
from pathlib import Path

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.ingesting import CURIE, write
from tgneo.ingest.sample import QUESTIONS


def test_load_sample_prints_three_questions_and_loading_again_changes_nothing(
    neo4j_server: Neo4jServer, collection: str
) -> None:
    first = tgneo(neo4j_server, "load", "sample", "--workspace", "w", "--collection", collection)
    assert first.stdout.splitlines() == [q.text for q in QUESTIONS]
    summary = [line for line in first.stderr.splitlines() if "documents loaded" in line]
    assert re.fullmatch(
        rf"4 documents loaded, 0 unchanged, 0 skipped: 3 pages, \d+ sections, \d+ chunks, \d+ statements, "
        rf"\d+ entities into workspace 'w', collection '{collection}'",
        summary[0],
    )
    again = tgneo(neo4j_server, "load", "sample", "--workspace", "w", "--collection", collection)
    assert "0 documents loaded, 4 unchanged, 0 skipped" in again.stderr


def test_a_file_that_cannot_be_read_is_one_line_and_the_exit_status_says_so(
    neo4j_server: Neo4jServer, collection: str, tmp_path: Path
) -> None:
    folder = write(tmp_path / "docs", {"curie.md": CURIE, "broken.pdf": b"%PDF-1.4 nothing else"})
    result = tgneo(neo4j_server, "load", "documents", str(folder), "--collection", collection, ok=False)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    (skipped,) = [line for line in lines if line.startswith("skipped")]
    assert skipped.startswith(f"skipped {folder / 'broken.pdf'}: is not a readable PDF (")
    assert lines[-1].startswith("1 document loaded, 0 unchanged, 1 skipped: 2 sections, 2 chunks, ")


def test_paths_without_documents_are_an_error_naming_them(neo4j_server: Neo4jServer, tmp_path: Path) -> None:
    write(tmp_path / "empty", {"notes.csv": "a,b\n"})
    result = tgneo(neo4j_server, "load", "documents", str(tmp_path / "empty"), ok=False)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"error: no documents to load in {tmp_path / 'empty'} (tgneo reads .txt, .md, .html, .pdf)"
    ]


def test_load_index_on_an_empty_collection_says_there_is_nothing(neo4j_server: Neo4jServer, collection: str) -> None:
    result = tgneo(neo4j_server, "load", "index", "--collection", collection)
    assert result.stderr.startswith(f"nothing to index: workspace 'default', collection '{collection}' holds no")
    assert result.stdout == ""


def test_load_index_after_a_load_finds_nothing_to_do(
    neo4j_server: Neo4jServer, collection: str, tmp_path: Path
) -> None:
    folder = write(tmp_path / "docs", {"curie.md": CURIE})
    tgneo(neo4j_server, "load", "documents", str(folder), "--collection", collection, "--chunk-size", "200")
    result = tgneo(neo4j_server, "load", "index", "--collection", collection)
    assert result.stderr.startswith(
        f"indexed 0 entities and 0 chunks in workspace 'default', collection '{collection}'"
    )


def test_bad_chunk_settings_are_refused_before_anything_runs(tmp_path: Path) -> None:
    result = tgneo(None, "load", "documents", str(tmp_path), "--chunk-size", "100", "--chunk-overlap", "100", ok=False)
    assert result.returncode == 2
    assert "chunk overlap must be at least 0 and less than the chunk size (100), not 100" in result.stderr
