#!/usr/bin/env bash
# tgneo beside the NEWEST langchain-neo4j, neo4j-graphrag and neo4j driver the registry serves, as a user who runs
# `pip install tgneo langchain-neo4j neo4j-graphrag` gets them: .venv-newest (created when missing, upgraded on
# every run, no constraints.txt) runs the tests that use those libraries, every command's --help and the
# dependency checks. scripts/test.sh runs it after the locked suite (and after bootstrap.sh has checked Python,
# Java and Maven); extra arguments go to pytest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
venv=.venv-newest
started=$SECONDS

if [ ! -x "$venv/bin/python" ]; then
  echo "creating $venv ..." >&2
  "$PYTHON" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip
# eager: the libraries' own dependencies (langchain-core, pydantic, ...) move to their newest too, as in a fresh venv
"$venv/bin/python" -m pip install -q --upgrade --upgrade-strategy eager -e ".[test]" neo4j langchain-neo4j neo4j-graphrag
"$venv/bin/python" -m pip check >&2
"$venv/bin/python" - >&2 <<'EOF'
from importlib.metadata import version
names = ["neo4j", "langchain-neo4j", "neo4j-graphrag", "langchain-core", "langchain-openai", "opentelemetry-sdk",
         "openinference-instrumentation-langchain", "rdflib-neo4j"]
print("resolved:", ", ".join(f"{name} {version(name)}" for name in names))
EOF
echo "installed in $((SECONDS - started))s" >&2

# The test modules that use the users' libraries, directly or through the helpers that write their graphs
# (tests/coexisting.py, tests/foreign_graphs.py), found rather than listed so a new one is never left out.
mapfile -t modules < <(grep -lE '^\s*(from|import) (langchain|neo4j_graphrag|openinference|opentelemetry\.sdk|tests\.(coexisting|foreign_graphs))\b' tests/test_*.py)
# Left to the locked suite: tests/test_coexistence.py, which checks tgneo's *schema* beside theirs (labels, indexes,
# constraints on an empty database, both orders). The graph-profile and fallback tests write the same graphs with
# the same libraries here and read them through tgneo, and the schema it checks does not move with their versions;
# its 51 tests would add about 2.5 minutes to a CI run that must stay under 40 (measured: 7m46s with it).
mapfile -t modules < <(printf '%s\n' "${modules[@]}" | grep -v '^tests/test_coexistence\.py$')
echo "== pytest at the newest releases ($venv): tests/test_cli_help.py tests/test_dependencies.py ${modules[*]}" >&2
# Deselected, both run in the locked suite:
# - trustgraphs_cli: TrustGraph's own CLI (trustgraph-cli, a dev dependency) asking tgneo's gateway. It is no library
#   of the user's Neo4j environment (it runs in its own and speaks HTTP to tgneo).
# - reembedding_all_collections: moves side indexes between tgneo's own offline embedders; nothing in it depends on
#   the libraries this environment moves to their newest.
"$venv/bin/python" -m pytest -k "not trustgraphs_cli and not reembedding_all_collections" \
  tests/test_cli_help.py tests/test_dependencies.py "${modules[@]}" "$@"
echo "newest-releases environment: install and tests took $((SECONDS - started))s" >&2
