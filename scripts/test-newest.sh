#!/usr/bin/env bash
# tgneo as a user installs it: the built wheel, beside the NEWEST langchain-neo4j, neo4j-graphrag and neo4j driver the
# registry serves, as `pip install langchain-neo4j neo4j-graphrag` and then the wheel give them. The environment (no
# constraints.txt) gets their libraries first, then dist/tgneo-*.whl built from this checkout (`pip wheel --no-deps
# .`), and runs, from that wheel, the tests that use those libraries, the Python API's, tests/test_wheel.py (no java
# or mvn on PATH, a fresh TGNEO_HOME), every command's --help and the dependency checks. scripts/test.sh runs it
# after the locked suite; extra arguments go to pytest.
#
# The environment lives outside the checkout, in ~/.cache/tgneo-newest/env (XDG_CACHE_HOME), so a fresh clone finds
# it: every run first asks the registry what those installs would give now (`pip install --dry-run --report`: every
# package's newest fitting version, no download of the packages), and the environment is made anew, as above, only
# when that answer or the Python differ from the ones it was made for, or when what it holds is no longer what was
# installed into it; otherwise only this run's wheel is installed into it again. Runs take turns (a lock).
#
# Its three steps can run apart (scripts/test.sh makes the environment while the locked suite runs): --wheel builds
# the wheel (in the tree: nothing may read the tree's metadata meanwhile), --install makes the environment from it,
# --tests runs the tests; with none of them, all three.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tgneo-newest"
venv="$cache/env"
started=$SECONDS
steps="wheel install tests"
case "${1:-}" in
  --wheel|--install|--tests) steps="${1#--}"; shift ;;
esac

mkdir -p "$cache"
exec 9>"$cache/lock"
flock 9  # one run at a time builds, installs into the environment and tests from it
if [ ! -x "$cache/resolver/bin/python" ]; then
  "$PYTHON" -m venv "$cache/resolver"  # pip alone: it builds the wheel and asks the registry what would install
fi

build_wheel() {
  # the wheel, built from this checkout as a user builds it (an isolated build: setuptools from the registry)
  "$cache/resolver/bin/python" -m pip install -q --upgrade pip
  rm -rf dist build tgneo.egg-info
  "$cache/resolver/bin/python" -m pip wheel -q --no-deps -w dist .
  rm -rf build tgneo.egg-info  # the in-tree build's leftovers: a stale egg-info would shadow the installed metadata
}

installed() { "$venv/bin/python" -m pip freeze --all --exclude tgneo; }

install_env() {
  local wheel key
  wheel="$(ls dist/tgneo-*.whl)"
  # What a fresh install would resolve now: one resolution of their libraries and the wheel with its test extra,
  # the key of the environment (with the Python).
  "$cache/resolver/bin/python" -m pip install -q --dry-run --ignore-installed --report "$cache/resolved.json" \
    neo4j langchain-neo4j neo4j-graphrag "$wheel[test]"
  key="$("$PYTHON" - "$cache/resolved.json" <<'PY'
import json, os, sys
found = json.load(open(sys.argv[1], encoding="utf-8"))["install"]
names = sorted(f"{p['metadata']['name'].lower()}=={p['metadata']['version']}" for p in found
               if p["metadata"]["name"].lower() != "tgneo")
print(os.path.realpath(sys.executable), sys.version, *names)
PY
)"
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.tgneo-key" 2>/dev/null)" = "$key" ] \
     && [ "$(installed)" = "$(cat "$venv/.tgneo-freeze" 2>/dev/null)" ]; then
    echo "reusing $venv: the registry's newest releases are the ones it holds" >&2
  else
    echo "creating $venv (the registry's newest releases moved, or none was made yet) ..." >&2
    rm -rf "$venv"
    "$PYTHON" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --upgrade pip
    # their libraries first; eager: their own dependencies (langchain-core, pydantic, ...) move to their newest too
    "$venv/bin/python" -m pip install -q --upgrade --upgrade-strategy eager neo4j langchain-neo4j neo4j-graphrag
    "$venv/bin/python" -m pip install -q --upgrade --upgrade-strategy eager "$wheel[test]"
    installed > "$venv/.tgneo-freeze"
    printf '%s' "$key" > "$venv/.tgneo-key"
  fi
  # the same version number as an earlier run's wheel: install this build's files whatever pip thinks it has
  "$venv/bin/python" -m pip install -q --force-reinstall --no-deps "$wheel"
  "$venv/bin/python" -m pip check >&2
  (cd / && "$venv/bin/python" -P -c 'import tgneo, sys; sys.exit("site-packages" not in tgneo.__file__)') \
    || { echo "tgneo in $venv is not the installed wheel" >&2; exit 1; }
  "$venv/bin/python" - >&2 <<'PY'
from importlib.metadata import version
names = ["neo4j", "langchain-neo4j", "neo4j-graphrag", "langchain-core", "langchain-openai", "opentelemetry-sdk",
         "openinference-instrumentation-langchain", "rdflib-neo4j"]
print("resolved:", ", ".join(f"{name} {version(name)}" for name in names))
PY
  echo "installed in $((SECONDS - started))s" >&2
}

run_tests() {
# The test modules that use the users' libraries, directly or through the helpers that write their graphs
  # (tests/coexisting.py, tests/foreign_graphs.py), found rather than listed so a new one is never left out.
  mapfile -t modules < <(grep -lE '^\s*(from|import) (langchain|neo4j_graphrag|openinference|opentelemetry\.sdk|tests\.(coexisting|foreign_graphs))\b' tests/test_*.py)
  modules+=(tests/test_wheel.py tests/test_python_api.py)
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
  # The venv's pytest script (not `python -m pytest`, which puts the checkout first on sys.path) in append mode: the
  # checkout's directory goes last, so `import tgneo` is the wheel's and `import tests` the checkout's tests.
  TGNEO_WHEEL="$ROOT/$(ls dist/tgneo-*.whl)" "$venv/bin/pytest" --import-mode=append -n 2 --dist loadgroup -k "not trustgraphs_cli and not reembedding_all_collections" \
    tests/test_cli_help.py tests/test_dependencies.py "${modules[@]}" "$@"
  echo "newest-releases environment: $steps took $((SECONDS - started))s" >&2
}

case "$steps" in
  *wheel*) build_wheel ;;
esac
case "$steps" in
  *install*) install_env ;;
esac
case "$steps" in
  *tests*) run_tests "$@" ;;
esac
