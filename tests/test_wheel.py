"""tgneo as a pip user has it: the installed package, no Java or Maven, a fresh home, a Neo4j started elsewhere.

``scripts/test-newest.sh`` installs the built wheel (``pip wheel --no-deps .``) into its environment after the
newest neo4j, langchain-neo4j and neo4j-graphrag, and runs this module there with ``TGNEO_WHEEL`` naming the wheel,
the ``tgneo`` of that venv and pytest's ``--import-mode=append``: every import of ``tgneo`` is the wheel's. The
locked suite runs it too, on the editable checkout. Either way the commands run as a user runs them: the venv's
``tgneo`` script from a directory that is not the checkout, with ``PATH`` holding that venv's ``bin`` alone (no
``java``, no ``mvn``), a new ``TGNEO_HOME`` (no local instance, no model: the default embedder's weights are
fetched on first use, from a local Maven repository standing in for Maven Central so that CI does not depend on
the network) and ``NEO4J_*`` naming the session's server.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from importlib.metadata import distributions
from pathlib import Path

import pytest

import tgneo
from tests.conftest import Neo4jServer
from tests.ingesting import CURIE, WARSAW, write
from tgneo import downloads
from tgneo.llm.offline import minilm

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
QUESTION = "Who discovered polonium?"


def test_the_suite_runs_the_package_it_means_to() -> None:
    """In the newest-versions job, the wheel's files (never the checkout's); in the locked job, the checkout."""
    where = Path(tgneo.__file__).resolve()
    installed = [d for d in distributions(path=[sysconfig.get_paths()["purelib"]]) if d.metadata["Name"] == "tgneo"]
    assert len(installed) == 1, "tgneo is installed in this venv, once"
    direct = json.loads(installed[0].read_text("direct_url.json") or "{}")
    wheel = os.environ.get("TGNEO_WHEEL")
    if wheel:
        assert ROOT not in where.parents, f"tgneo was imported from the checkout ({where}), not from {wheel}"
        assert "site-packages" in where.parts
        assert direct.get("url", "").endswith(Path(wheel).name), direct
    else:
        assert where.parent == ROOT / "tgneo" and direct.get("dir_info", {}).get("editable"), direct


@pytest.fixture
def user(neo4j_server: Neo4jServer, tmp_path: Path) -> dict[str, str]:
    """A user's environment: the venv's bin alone on PATH, a new home, and a local Maven repository holding the
    weights' jar (copied from the one the session fetched from Maven Central)."""
    jar = minilm.jar_path()
    assert jar is not None, "the session fixture fetched no model"
    repository = tmp_path / "m2"
    published = Path(minilm.WEIGHTS.url(str(repository)))
    published.parent.mkdir(parents=True)
    shutil.copy2(jar, published)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TGNEO_", "NEO4J_", "JAVA", "MAVEN", "M2_"))}
    env.update({name: value for name, value in neo4j_server.env().items() if name.startswith("NEO4J_")})
    env.update(PATH=str(BIN), TGNEO_HOME=str(tmp_path / "home"), HOME=str(tmp_path / "user"))
    env[downloads.REPOSITORY_VAR] = repository.as_uri()
    (tmp_path / "user").mkdir()
    assert shutil.which("java", path=env["PATH"]) is None and shutil.which("mvn", path=env["PATH"]) is None
    return env


def run(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(list(args), env=env, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, f"{' '.join(args)} failed ({result.returncode}):\n{result.stderr[-3000:]}"
    return result


def test_without_java_or_maven_a_user_loads_and_asks_every_engine(
    user: dict[str, str], tmp_path: Path, collection: str
) -> None:
    docs = write(tmp_path / "docs", {"curie.md": CURIE, "warsaw.txt": WARSAW})
    loaded = run(user, tmp_path, str(BIN / "tgneo"), "load", "documents", str(docs), "--collection", collection)
    assert "2 documents loaded" in loaded.stderr
    assert minilm.jar_path(Path(user["TGNEO_HOME"])) is not None, "the weights were fetched on first use"
    for engine in ("graph-rag", "document-rag", "agent"):
        asked = run(user, tmp_path, str(BIN / "tgneo"), "ask", "-x", QUESTION, "--engine", engine,
                    "--collection", collection)  # fmt: skip
        assert "polonium" in asked.stdout.lower(), (engine, asked.stdout)
        assert "Sources:" in asked.stderr and "trace: urn:trustgraph:" in asked.stderr, (engine, asked.stderr)


API = """
import json, sys
import tgneo

with tgneo.connect(collection=sys.argv[1]) as tg:
    report = tg.load([sys.argv[2]])
    answer = tg.ask("Who discovered polonium?", engine="graph-rag")
    trace = tg.trace(answer.trace_uri)
    print(json.dumps({"loaded": report.loaded, "text": answer.text, "sources": [s.title for s in answer.sources],
                      "steps": [s.type for s in trace.steps], "module": tgneo.__file__,
                      "turtle": len(tg.export(answer.trace_uri, format="turtle"))}))
"""


def test_the_python_api_works_from_the_installed_package(user: dict[str, str], tmp_path: Path, collection: str) -> None:
    docs = write(tmp_path / "docs", {"curie.md": CURIE})
    script = tmp_path / "app.py"
    script.write_text(API)
    result = run(user, tmp_path, sys.executable, "-P", str(script), collection, str(docs))
    printed = json.loads(result.stdout)
    assert printed["loaded"] == 1 and "polonium" in printed["text"].lower()
    assert printed["sources"] == ["Marie Curie"]
    assert printed["steps"] == ["GraphRagQuestion", "Grounding", "Exploration", "Focus", "Synthesis"]
    assert printed["turtle"] > 0
    assert Path(printed["module"]).resolve() == Path(tgneo.__file__).resolve(), "the app imports what the suite does"
