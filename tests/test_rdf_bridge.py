"""The RDF bridge as a user meets it: strict PROV-O out, any RDF in, all or nothing, shapes that hold.

Every test imports and exports through the real ``tgneo`` CLI (or the store functions it calls) against
the real Neo4j, in its own collection.
"""

from __future__ import annotations

import socket
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import Graph

from tests.clirun import invoke as tgneo  # in this process: these tests check what the commands print and store
from tests.conftest import Neo4jServer
from tests.ingesting import query
from tgneo.errors import StoreError, StoreUnavailable
from tgneo.graphmodel.compiler import NativeRows
from tgneo.rdf.formats import get_format
from tgneo.rdf.ontology import build_ontology, graph_of, load, validate
from tgneo.rdf.reader import read_quads
from tgneo.rdf.star import isomorphic, parse
from tgneo.rdf.terms import MAX_NESTING, Quad
from tgneo.store import Store, install_schema
from tgneo.store.rdf_export import export_quads
from tgneo.store.rdf_import import import_file, recover
from tgneo.vocab import PROV, RDF, TG

DATA = Path(__file__).parent / "data"
FIXTURE = DATA / "trustgraph_sessions.nq"


def count_nodes(store: Store, collection: str) -> int:
    with store.driver.session(database=store.database) as session:
        record = session.run("MATCH (n {collection: $c}) RETURN count(n) AS n", c=collection).single()
    assert record is not None
    return int(record["n"])


def export(server: Neo4jServer, collection: str, *args: str) -> str:
    return tgneo(server, "export", "--workspace", "w", "--collection", collection, *args).stdout


def load_fixture(server: Neo4jServer, collection: str) -> None:
    tgneo(server, "import", str(FIXTURE), "--workspace", "w", "--collection", collection)


# ------------------------------------------------------------------------------------------ prov profile
def test_prov_is_the_default_profile_and_no_question_is_also_an_activity(
    neo4j_server: Neo4jServer, collection: str
) -> None:
    load_fixture(neo4j_server, collection)
    quads = set(parse(export(neo4j_server, collection), "nquads"))
    questions = {q.s for q in quads if q.p == RDF.type and q.o == TG.Question}
    assert questions and not {q.s for q in quads if q.p == PROV.startedAtTime} & questions
    for question in questions:
        [session] = [q.o for q in quads if q.s == question and q.p == PROV.wasGeneratedBy]
        assert Quad(session, RDF.type, PROV.Activity, "urn:graph:retrieval") in quads
        assert any(q.s == session and q.p == PROV.startedAtTime for q in quads)
        [agent] = [q.o for q in quads if q.s == session and q.p == PROV.wasAssociatedWith]
        assert Quad(agent, RDF.type, PROV.SoftwareAgent, "urn:graph:retrieval") in quads


def test_importing_the_prov_profile_gives_the_graph_of_its_trustgraph_twin(
    neo4j_server: Neo4jServer, collection: str, tmp_path: Path
) -> None:
    load_fixture(neo4j_server, collection)
    for fmt in ("nquads", "trig", "json-ld"):
        prov = tmp_path / f"prov{get_format(fmt).extension}"
        prov.write_text(export(neo4j_server, collection, "--format", fmt))
        twin = f"{collection}-{fmt}"
        tgneo(neo4j_server, "import", str(prov), "--workspace", "w", "--collection", twin)
        assert export(neo4j_server, twin, "--profile", "trustgraph") == export(
            neo4j_server, collection, "--profile", "trustgraph"
        ), fmt


def test_the_prov_package_reads_the_reification_export(
    neo4j_server: Neo4jServer, collection: str, tmp_path: Path
) -> None:
    from prov.model import ProvActivity, ProvDocument, ProvEntity, ProvGeneration

    load_fixture(neo4j_server, collection)
    out = tmp_path / "prov.trig"
    tgneo(neo4j_server, "export", "--workspace", "w", "--collection", collection, "--format", "trig",
          "--quoted", "reification", "-o", str(out))  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # prov reports the tg: types it has no PROV meaning for
        document = ProvDocument.deserialize(source=str(out), format="rdf", rdf_format="trig")
    records = [r for bundle in document.bundles for r in bundle.get_records()]
    kinds = {type(r) for r in records}
    assert {ProvEntity, ProvActivity, ProvGeneration} <= kinds
    assert sum(isinstance(r, ProvActivity) for r in records) == 3 + 7  # extraction steps + one per session


def test_export_takes_a_set_of_traces_or_one_graph(neo4j_server: Neo4jServer, collection: str) -> None:
    load_fixture(neo4j_server, collection)
    graphrag, docrag = (
        "urn:trustgraph:question:00000000-0000-4000-8000-000000000001",
        "urn:trustgraph:docrag:00000000-0000-4000-8000-000000000002",
    )

    def quads(*args: str) -> set[Quad]:
        return set(parse(export(neo4j_server, collection, "--profile", "trustgraph", *args), "nquads"))

    assert quads(graphrag, docrag) == quads(graphrag) | quads(docrag)
    fixture = set(parse(FIXTURE.read_bytes(), "nquads"))
    assert quads("--graph", "source") == {q for q in fixture if q.g == "urn:graph:source"}
    assert quads("--graph", "default") == {q for q in fixture if q.g == ""}


# ------------------------------------------------------------------------------------------ shapes
def test_every_export_of_the_fixture_passes_the_shapes(neo4j_server: Neo4jServer, collection: str) -> None:
    load_fixture(neo4j_server, collection)
    result = tgneo(neo4j_server, "validate", "--workspace", "w", "--collection", collection)
    assert "conforms" in result.stderr


def _prov_graph(server: Neo4jServer, collection: str) -> Graph:
    return graph_of(parse(export(server, collection), "nquads"))


@pytest.mark.parametrize(
    ("planted", "message"),
    [
        (
            "<urn:trustgraph:question:00000000-0000-4000-8000-000000000001> prov:startedAtTime "
            '"2025-01-01T00:00:00Z"^^xsd:dateTime .',
            "both a prov:Entity and a prov:Activity",
        ),
        (
            "<urn:trustgraph:question:00000000-0000-4000-8000-000000000001> prov:wasDerivedFrom "
            "<urn:trustgraph:prov:synthesis:00000000-0000-4000-8000-000000000001> .",
            "cycle",
        ),
        ('<urn:x:step> tg:inToken "12" .', "datatype"),
        ("<urn:x:focus> a tg:Focus .", "selects at least one"),
        ('<urn:x:obs> a tg:Observation ; tg:toolError "boom" .', "tg:toolError"),
        ("<urn:x:sel> a tg:EdgeSelection .", "exactly one tg:edge"),
        (
            "<urn:x:e> prov:wasGeneratedBy <urn:x:a1> , <urn:x:a2> . <urn:x:a1> a prov:Activity . "
            "<urn:x:a2> a prov:Activity .",
            "exactly one prov:Activity",
        ),
        ("<urn:x:q> a tg:Question .", "exactly one tg:query"),
    ],
)
def test_the_shapes_catch_a_planted_violation(
    neo4j_server: Neo4jServer, collection: str, planted: str, message: str
) -> None:
    load_fixture(neo4j_server, collection)
    data = _prov_graph(neo4j_server, collection)
    assert validate(data)[0]
    prefixes = "@prefix prov: <http://www.w3.org/ns/prov#> . @prefix tg: <https://trustgraph.ai/ns/> . " \
               "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"  # fmt: skip
    data.parse(data=prefixes + planted, format="turtle")
    conforms, _, report = validate(data)
    assert not conforms and message in report


def test_the_trustgraph_profile_is_not_strict_prov(neo4j_server: Neo4jServer, collection: str) -> None:
    load_fixture(neo4j_server, collection)
    data = graph_of(parse(export(neo4j_server, collection, "--profile", "trustgraph"), "nquads"))
    conforms, _, report = validate(data)
    assert not conforms and "both a prov:Entity and a prov:Activity" in report


def test_the_packaged_ontology_is_what_the_mapping_table_generates() -> None:
    assert isomorphic_graphs(load("ontology.ttl"), build_ontology())


def isomorphic_graphs(a: Graph, b: Graph) -> bool:
    from rdflib.compare import isomorphic as iso

    return bool(iso(a, b))


# ------------------------------------------------------------------------------------------ any RDF in
def _prov_examples() -> list[Path]:
    import prov

    folder = Path(prov.__file__).parent / "tests" / "rdf"
    return sorted(folder.glob("*.ttl"))[::40]


def test_rdf_from_elsewhere_round_trips_isomorphically(neo4j_server: Neo4jServer, collection: str) -> None:
    files = _prov_examples()
    assert files, "the prov package ships example RDF"
    for i, path in enumerate(files):
        fmt = get_format(path.suffix)
        target = f"{collection}-{i}"
        tgneo(neo4j_server, "import", str(path), "--workspace", "w", "--collection", target, "--base", "http://ex.org/")
        original = list(read_quads(path, fmt, base="http://ex.org/"))
        back = parse(export(neo4j_server, target, "--format", "nquads"), "nquads")
        assert isomorphic(back, original), path.name


@pytest.mark.parametrize("quoted", ["star", "triple-term", "reification"])
def test_every_quoted_triple_form_reads_back_as_the_same_graph(
    neo4j_server: Neo4jServer, collection: str, tmp_path: Path, quoted: str
) -> None:
    load_fixture(neo4j_server, collection)
    out = tmp_path / "out.trig"
    tgneo(neo4j_server, "export", "--workspace", "w", "--collection", collection, "--format", "trig",
          "--quoted", quoted, "-o", str(out))  # fmt: skip
    tgneo(neo4j_server, "import", str(out), "--workspace", "w", "--collection", collection + "-again")
    assert export(neo4j_server, collection + "-again", "--profile", "trustgraph") == export(
        neo4j_server, collection, "--profile", "trustgraph"
    )


def test_reimporting_the_same_file_adds_nothing(neo4j_server: Neo4jServer, store: Store, collection: str,
                                                tmp_path: Path) -> None:  # fmt: skip
    turtle = tmp_path / "anon.ttl"
    turtle.write_text("@prefix ex: <http://ex.org/> .\nex:a ex:p [ ex:q 1 ] , [ ex:q 2 ] .\n_:b1 ex:r ex:a .\n")
    tgneo(neo4j_server, "import", str(turtle), "--workspace", "w", "--collection", collection)
    before = count_nodes(store, collection)
    tgneo(neo4j_server, "import", str(turtle), "--workspace", "w", "--collection", collection)
    assert count_nodes(store, collection) == before


def test_blank_nodes_belong_to_their_file(neo4j_server: Neo4jServer, collection: str, tmp_path: Path) -> None:
    for name, value in (("one.nt", "1"), ("two.nt", "2")):
        (tmp_path / name).write_text(f'_:b1 <http://ex.org/p> "{value}" .\n')
        tgneo(neo4j_server, "import", str(tmp_path / name), "--workspace", "w", "--collection", collection)
    quads = parse(export(neo4j_server, collection), "nquads")
    assert len({q.s for q in quads}) == 2


# ------------------------------------------------------------------------------------------ refusals
def nested(depth: int) -> str:
    """A quoted triple ``depth`` levels deep: each level's object is the next quoted triple."""
    return "<< <http://s> <http://p> " * depth + "<http://o>" + " >>" * depth


def _refused(server: Neo4jServer, path: Path, collection: str) -> str:
    result = tgneo(server, "import", str(path), "--workspace", "w", "--collection", collection, ok=False)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


def test_a_value_neo4j_would_refuse_in_the_last_line_writes_nothing(
    neo4j_server: Neo4jServer, store: Store, collection: str, tmp_path: Path
) -> None:
    big = tmp_path / "big.nt"
    with open(big, "w") as out:
        for i in range(10_000):
            out.write(f'<http://ex.org/s{i}> <http://ex.org/p> "v{i}" .\n')
        out.write(f'<http://ex.org/{"x" * 40_000}> <http://ex.org/p> "too long" .\n')
    message = _refused(neo4j_server, big, collection)
    assert "line 10001, column" in message and "nothing was imported" in message
    assert count_nodes(store, collection) == 0


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("bad.ttl", '@prefix ex: <http://ex.org/> .\nex:a ex:p ex:b ;\n  ex:q "x"^^ .\n', "line 3, column 14"),
        ("bad.trig", "<urn:g> { <http://a> <http://b> \n <http://c> <http://d> }\n", "line 2"),
        ("bad.jsonld", '{"@id": "http://ex.org/a",\n "@type": 5}', "line 2, column 11"),
        ("bad.nq", '<http://a> <http://b> "x .\n', "line 1, column"),
        ("esc.nt", '<http://ex.org/a\\u0020b> <http://ex.org/p> "x" .\n', "line 1, column 2"),
        ("esc.ttl", '<http://ex.org/a\\u0020b> <http://ex.org/p> "x" .\n', "line 1, column"),
        ("deep.nt", f"<http://a> <http://p> {nested(MAX_NESTING + 1)} .\n", f"deeper than {MAX_NESTING}"),
        ("deep.ttl", f"<http://a> <http://p> {nested(500)} .\n", f"deeper than {MAX_NESTING}"),
    ],
)
def test_bad_input_is_refused_on_one_line_with_its_position_and_writes_nothing(
    neo4j_server: Neo4jServer, store: Store, collection: str, tmp_path: Path, name: str, text: str, where: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    assert where in _refused(neo4j_server, path, collection)
    assert count_nodes(store, collection) == 0


@pytest.mark.parametrize("name", ["empty.nq", "empty.nt", "empty.ttl", "empty.trig", "empty.jsonld"])
def test_an_empty_file_is_refused_the_same_way_in_every_format(
    neo4j_server: Neo4jServer, collection: str, tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    path.write_text("" if not name.endswith(".jsonld") else "[]")
    assert "holds no triples" in _refused(neo4j_server, path, collection)


def test_what_tgneo_writes_at_its_deepest_nesting_it_reads(
    neo4j_server: Neo4jServer, collection: str, tmp_path: Path
) -> None:
    source = tmp_path / "deep.nq"
    source.write_text(f"<http://a> <http://p> {nested(MAX_NESTING)} .\n")
    tgneo(neo4j_server, "import", str(source), "--workspace", "w", "--collection", collection)
    for fmt in ("turtle", "trig", "json-ld", "nt"):
        out = tmp_path / f"out{get_format(fmt).extension}"
        tgneo(neo4j_server, "export", "--workspace", "w", "--collection", collection, "--format", fmt,
              "--quoted", "star", "-o", str(out))  # fmt: skip
        assert isomorphic(read_quads(out, get_format(fmt)), parse(source.read_bytes(), "nquads")), fmt


def test_export_to_a_missing_directory_is_one_line(neo4j_server: Neo4jServer, collection: str) -> None:
    result = tgneo(neo4j_server, "export", "--collection", collection, "-o", "/nonexistent/dir/f.nq", ok=False)
    assert result.returncode == 1 and result.stderr.startswith("error:") and "Traceback" not in result.stderr


# ------------------------------------------------------------------------------------------ Neo4j gone
class _Proxy:
    """A real TCP relay to Neo4j that can be cut, as a crashed server or a lost network would."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self.open = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while self.open:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            self.sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a: socket.socket, b: socket.socket) -> None:
        try:
            while chunk := a.recv(65536):
                b.sendall(chunk)
        except OSError:
            pass

    def cut(self) -> None:
        self.open = False
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread; close alone may not
        except OSError:
            pass
        self.listener.close()
        for s in self.sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()


@pytest.fixture
def proxy(neo4j_server: Neo4jServer) -> Iterator[_Proxy]:
    host, port = neo4j_server.uri.split("://", 1)[1].rsplit(":", 1)
    relay = _Proxy((host, int(port)))
    yield relay
    relay.cut()


def test_neo4j_lost_mid_import_leaves_the_collection_as_it_was_after_recovery(
    neo4j_server: Neo4jServer, store: Store, collection: str, tmp_path: Path, proxy: _Proxy
) -> None:
    install_schema(store)
    before_file = tmp_path / "before.nt"
    before_file.write_text('<http://ex.org/kept> <http://ex.org/p> "kept" .\n')
    import_file(store, "w", collection, before_file, get_format("nt"))
    before = export(neo4j_server, collection, "--profile", "trustgraph")
    nodes_before = count_nodes(store, collection)
    big = tmp_path / "big.nt"
    big.write_text("".join(f'<http://ex.org/s{i}> <http://ex.org/p> "v{i}" .\n' for i in range(3000)))
    flaky = Store(f"bolt://127.0.0.1:{proxy.port}", (neo4j_server.username, neo4j_server.password or ""),
                  retry_seconds=1.0)  # fmt: skip
    written: list[int] = []

    def cut_after_two_batches(done: int, total: int) -> None:
        written.append(done)
        if len(written) == 2:
            proxy.cut()

    with pytest.raises((StoreUnavailable, StoreError)):
        import_file(flaky, "w", collection, big, get_format("nt"), batch_size=500, progress=cut_after_two_batches)
    flaky.close()
    assert count_nodes(store, collection) > nodes_before  # the two committed batches are there…
    recovered = recover_now(store, collection)
    assert recovered and count_nodes(store, collection) == nodes_before  # …until recovery removes them
    assert export(neo4j_server, collection, "--profile", "trustgraph") == before


def recover_now(store: Store, collection: str) -> list[str]:
    """Recovery as the next command runs it, without waiting for the abandoned import's lease."""
    from tgneo.store import imports

    return [u.id for u in imports.recover(store, "w", collection, lease_seconds=0) if u.action == "rolled back"]


def test_a_failed_import_undoes_its_changes_to_older_nodes(
    neo4j_server: Neo4jServer, store: Store, collection: str, tmp_path: Path
) -> None:
    load_fixture(neo4j_server, collection)
    before = export(neo4j_server, collection, "--profile", "trustgraph")
    nodes = count_nodes(store, collection)
    changes = tmp_path / "changes.nq"
    question = "urn:trustgraph:question:00000000-0000-4000-8000-000000000001"
    changes.write_text(
        f'<{question}> <https://trustgraph.ai/ns/reasoning> "added" <urn:graph:retrieval> .\n'
        f"<{question}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://trustgraph.ai/ns/Plan> "
        "<urn:graph:retrieval> .\n"
        '<http://example.org/marie-curie> <http://example.org/born> "1867"^^<http://www.w3.org/2001/XMLSchema#gYear> '
        "<urn:g:other> .\n"
    )
    from tgneo.store import imports

    job = imports.begin(store, "w", collection, "digest", str(changes))
    from tgneo.graphmodel.compiler import compile_quads
    from tgneo.store.write_path import write_batch

    write_batch(store, "w", collection, compile_quads(parse(changes.read_bytes(), "nquads")), import_id=job)
    assert export(neo4j_server, collection, "--profile", "trustgraph") != before
    imports.rollback(store, "w", collection, job)
    assert export(neo4j_server, collection, "--profile", "trustgraph") == before
    assert count_nodes(store, collection) == nodes
    assert recover(store, "w", collection) == []


def test_a_failed_import_keeps_the_nodes_a_concurrent_import_needs(store: Store, collection: str) -> None:
    from tgneo.graphmodel.compiler import compile_quads
    from tgneo.store import imports
    from tgneo.store.write_path import write_batch

    install_schema(store)
    shared = '<http://ex.org/shared> <http://ex.org/p> "both" .\n'
    first = imports.begin(store, "w", collection, "a", "a.nt")
    write_batch(store, "w", collection, compile_quads(parse(shared, "nt")), import_id=first)
    second = imports.begin(store, "w", collection, "b", "b.nt")
    own = "<http://ex.org/own> <http://ex.org/q> <http://ex.org/shared> .\n"
    write_batch(store, "w", collection, compile_quads(parse(shared + own, "nt")), import_id=second)
    imports.rollback(store, "w", collection, first)  # the first fails…
    imports.commit(store, "w", collection, second)  # …the second, which used its nodes, succeeds
    quads = export_quads_of(store, collection)
    assert set(quads) == set(parse(shared + own, "nt"))
    with store.driver.session(database=store.database) as session:
        marks = session.run(
            "MATCH (n {collection: $c}) WHERE n.tg_import IS NOT NULL OR n:TgImport OR n:TgImportUndo RETURN count(n)",
            c=collection,
        ).single()
    assert marks is not None and marks[0] == 0


def export_quads_of(store: Store, collection: str) -> list[Quad]:
    from tgneo.store.rdf_export import export_quads

    return export_quads(store, "w", collection, profile="trustgraph")


# ------------------------------------------------------------------------------------------ the fast path
PLAIN = (
    "<http://ex.org/a> <http://ex.org/knows> <http://ex.org/b> .\n"
    '<http://ex.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "A"@en .\n'
    '_:x <http://ex.org/age> "7"^^<http://www.w3.org/2001/XMLSchema#integer> .\n'
    "<http://ex.org/b> <http://ex.org/knows> _:x .\n"
)


def native_rows(text: str) -> NativeRows:
    rows = NativeRows()
    for quad in parse(text, "nt"):
        assert NativeRows.accepts(quad)
        rows.add(quad)
    return rows.freeze()


def native_graph(store: Store, collection: str) -> set[tuple[str, ...]]:
    """Every resource with its properties (marks left out) and every relationship it starts, as stored."""
    rows = query(
        store,
        "MATCH (n:TgResource {workspace: 'w', collection: $c}) "
        "RETURN n.uri AS uri, [k IN keys(n) WHERE NOT k IN ['tg_import', 'collection'] | [k, n[k]]] AS props, "
        "[(n)-[r]->(m) | [type(r), r.iri, r.id, m.uri]] AS rels",
        c=collection,
    )
    return {(r["uri"], str(sorted(map(str, r["props"]))), str(sorted(map(str, r["rels"])))) for r in rows}


def test_the_fast_path_writes_the_nodes_the_general_path_writes(store: Store, collection: str) -> None:
    from tgneo.graphmodel.compiler import compile_quads
    from tgneo.store import imports
    from tgneo.store.write_path import write_batch, write_native

    install_schema(store)
    general, fast = collection, collection + "-fast"
    job = imports.begin(store, "w", general, "a", "a.nt")
    write_batch(store, "w", general, compile_quads(parse(PLAIN, "nt")), import_id=job)
    imports.commit(store, "w", general, job)
    job = imports.begin(store, "w", fast, "a", "a.nt")
    write_native(store, "w", fast, native_rows(PLAIN), job)
    imports.commit(store, "w", fast, job)
    graph = native_graph(store, general)
    assert len(graph) == 3 and graph == native_graph(store, fast)
    assert set(export_quads(store, "w", fast, profile="trustgraph")) == set(parse(PLAIN, "nt"))


def test_a_fast_batch_of_a_stopped_import_writes_nothing(store: Store, collection: str) -> None:
    from tgneo.errors import ImportAborted
    from tgneo.store import imports
    from tgneo.store.write_path import write_native

    install_schema(store)
    job = imports.begin(store, "w", collection, "a", "a.nt")
    imports.rollback(store, "w", collection, job)
    with pytest.raises(ImportAborted, match="no longer running"):
        write_native(store, "w", collection, native_rows(PLAIN), job)
    assert count_nodes(store, collection) == 0


def test_a_fast_batch_merges_into_the_facts_the_collection_holds(store: Store, collection: str) -> None:
    from tgneo.store import imports
    from tgneo.store.write_path import write_native

    install_schema(store)
    first = imports.begin(store, "w", collection, "a", "a.nt")
    write_native(store, "w", collection, native_rows(PLAIN), first)
    imports.commit(store, "w", collection, first)
    before = native_graph(store, collection)
    more = PLAIN + (
        '<http://ex.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "Ah"@fr .\n'  # a second name
        '_:x <http://ex.org/age> "seven" .\n'  # a string where an integer is stored: a reified edge
        "<http://ex.org/a> <http://ex.org/knows> <http://ex.org/c> .\n"
    )
    second = imports.begin(store, "w", collection, "b", "b.nt")
    write_native(store, "w", collection, native_rows(more), second)
    imports.rollback(store, "w", collection, second)  # what it added goes again…
    assert native_graph(store, collection) == before
    assert set(export_quads(store, "w", collection, profile="trustgraph")) == set(parse(PLAIN, "nt"))
    third = imports.begin(store, "w", collection, "c", "c.nt")
    write_native(store, "w", collection, native_rows(more), third)
    imports.commit(store, "w", collection, third)  # …or stays, once committed
    assert set(export_quads(store, "w", collection, profile="trustgraph")) == set(parse(more, "nt"))
    (a,) = query(store, "MATCH (n:TgResource {workspace: 'w', collection: $c, uri: 'http://ex.org/a'}) "
                        "RETURN n.name AS name, n._name AS tags", c=collection)  # fmt: skip
    assert sorted(zip(a["name"], a["tags"], strict=True)) == [("A", "@en"), ("Ah", "@fr")]
