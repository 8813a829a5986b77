#!/usr/bin/env bash
# The whole test suite, from a fresh clone: .venv with the dev extras at the locked versions (constraints.txt),
# lint, types, then pytest against a real Neo4j (NEO4J_URI if set, else Docker if an engine answers, else the local
# server provisioned from Maven Central); then scripts/test-newest.sh, the adapters and graph profiles at the newest
# releases of langchain-neo4j, neo4j-graphrag and the driver (.venv-newest). Extra arguments go to pytest and run
# the locked suite only, e.g. scripts/test.sh -k schema.
set -euo pipefail
TGNEO_EXTRAS=dev source "$(dirname "$0")/bootstrap.sh"
echo "== ruff" >&2
ruff check .
ruff format --check .
echo "== mypy" >&2
mypy
echo "== pytest (locked: constraints.txt)" >&2
if [ $# -gt 0 ]; then
  exec pytest "$@"
fi
pytest
exec bash "$ROOT/scripts/test-newest.sh"
