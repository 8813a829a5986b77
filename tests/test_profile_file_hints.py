"""A graph profile given as a file is named by its path in every hint tgneo prints (``--graph`` takes the path,
not the name inside the file).

Their graph here is four nodes under labels of this test's own (named in the profile file), in the session's
database, so nothing another test reads carries them; they are deleted afterwards."""

from __future__ import annotations

import shlex
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tgneo.store import Store


@pytest.fixture
def profile_file(store: Store, tmp_path: Path) -> Iterator[Path]:
    """A profile file naming labels and types only this test's graph has, and that graph."""
    tag = uuid.uuid4().hex[:8]
    labels = {"entity": f"HintEntity{tag}", "chunk": f"HintChunk{tag}", "document": f"HintDocument{tag}"}
    mentions, part_of = f"HINT_MENTIONS_{tag}", f"HINT_PART_OF_{tag}"
    path = tmp_path / "my-graph.toml"
    path.write_text(
        f'name = "inner-name"\nextends = "neo4j-graphrag"\nmentions = "{mentions}"\n'
        f'[entity]\nlabel = "{labels["entity"]}"\n[chunk]\nlabel = "{labels["chunk"]}"\npart_of = "{part_of}"\n'
        f'[document]\nlabel = "{labels["document"]}"\n'
    )
    with store.driver.session(database=store.database) as session:
        session.run(
            "CREATE (d:$($document) {path: 'notes.md'})"
            "CREATE (c:$($chunk) {text: 'Polonium was named after Poland.', index: 0})-[:$($part_of)]->(d)"
            "CREATE (polonium:$($entity) {name: 'Polonium'})-[:$($mentions)]->(c)"
            "CREATE (poland:$($entity) {name: 'Poland'})-[:$($mentions)]->(c)"
            "CREATE (polonium)-[:NAMED_AFTER]->(poland)",
            **labels, mentions=mentions, part_of=part_of,
        ).consume()  # fmt: skip
    try:
        yield path
    finally:
        with store.driver.session(database=store.database) as session:
            for label in labels.values():
                session.run("MATCH (n:$($label)) DETACH DELETE n", label=label).consume()


def test_the_side_index_hint_names_a_profile_file_by_its_path(
    neo4j_server: Neo4jServer, profile_file: Path, collection: str
) -> None:
    built = tgneo(neo4j_server, "load", "index", "--graph", str(profile_file), "--collection", collection)
    assert f"`tgneo ask -x --graph {profile_file} --collection {collection} QUESTION`" in built.stderr
    assert "--graph inner-name" not in built.stderr


def test_the_side_index_hint_works_as_printed(neo4j_server: Neo4jServer, profile_file: Path, collection: str) -> None:
    built = tgneo(neo4j_server, "load", "index", "--graph", str(profile_file), "--collection", collection)
    hinted = built.stderr.split("`tgneo ", 1)[1].split("`", 1)[0]
    asked = tgneo(neo4j_server, *shlex.split(hinted.replace("QUESTION", shlex.quote("What was polonium named after?"))))
    assert "notes.md" in asked.stderr and "trace: urn:trustgraph:question:" in asked.stderr, asked.stderr
