#!/usr/bin/env bash
# The whole test suite, from a fresh clone: .venv with the dev extras, lint, types, then pytest
# against a real Neo4j (NEO4J_URI if set, else Docker if an engine answers, else the local server
# provisioned from Maven Central). Extra arguments go to pytest, e.g. scripts/test.sh -k schema.
set -euo pipefail
TGNEO_EXTRAS=dev source "$(dirname "$0")/bootstrap.sh"
echo "== ruff" >&2
ruff check .
ruff format --check .
echo "== mypy" >&2
mypy
echo "== pytest" >&2
exec pytest "$@"
