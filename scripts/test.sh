#!/usr/bin/env bash
# The whole test suite, from a fresh clone: .venv with the dev extras at the locked versions (constraints.txt),
# lint, types, then pytest against a real Neo4j (NEO4J_URI if set, else Docker if an engine answers, else the local
# server provisioned from Maven Central); then scripts/test-newest.sh, the adapters and graph profiles at the newest
# releases of langchain-neo4j, neo4j-graphrag and the driver (~/.cache/tgneo-newest/env). Extra arguments go to
# pytest and run the locked suite only, e.g. scripts/test.sh -k schema.
#
# The newest-releases environment is made while lint, types and the locked suite run (pip waits on the registry,
# the tests on Neo4j; each alone leaves the two cores idle most of the time): its wheel is built first, before
# anything reads the tree, and its tests run after the locked suite passed, as before.
set -euo pipefail
TGNEO_EXTRAS=dev source "$(dirname "$0")/bootstrap.sh"
newest=""
if [ $# -eq 0 ]; then
  bash "$ROOT/scripts/test-newest.sh" --wheel
  newest_log="$(mktemp)"
  set -m  # the install in a process group of its own, ended with this script whatever way it ends
  bash "$ROOT/scripts/test-newest.sh" --install >"$newest_log" 2>&1 &
  newest=$!
  set +m
  trap 'kill -- "-$newest" 2>/dev/null || true; rm -f "$newest_log"; python -m tests.kept_servers stop $$' EXIT
  # the servers the locked suite starts for itself stay up for the newest-releases suite, warm (tests/kept_servers.py)
  export TGNEO_TEST_KEEP_SERVERS=$$
fi
echo "== ruff" >&2
ruff check .
ruff format --check .
echo "== mypy" >&2
# its cache outside the checkout, so a fresh clone checks only what changed (18 s cold, 1 s from the cache: mypy
# compares each file's hash, whatever its path or time)
MYPY_CACHE_DIR="${MYPY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tgneo-mypy}" mypy
echo "== pytest (locked: constraints.txt)" >&2
if [ $# -gt 0 ]; then
  exec pytest "$@"
fi
# two workers (pytest-xdist): a test mostly waits on Neo4j or on a subprocess, so one alone leaves a core idle; three
# keep the two cores busier but slow every test down more (a clean-clone run: the locked suite 22:04 on three against
# 20:26 on two); a module's tests and each shared server's modules stay on one worker (tests/conftest.py);
# --durations: where a run's time went, in every CI log
pytest -n 2 --dist loadgroup --durations=40
echo "== the newest releases' environment (made meanwhile)" >&2
if ! wait "$newest"; then
  cat "$newest_log" >&2
  echo "the newest releases' environment could not be made" >&2
  exit 1
fi
cat "$newest_log" >&2
bash "$ROOT/scripts/test-newest.sh" --tests
