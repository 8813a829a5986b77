#!/usr/bin/env bash
# The main job, from a fresh clone: a local Neo4j 5.26 (+ Browser) provisioned from Maven Central,
# tgneo's schema, and the tgneo server on http://127.0.0.1:8888 (Ctrl-C stops the server; Neo4j
# keeps running until `tgneo db stop`). Set NEO4J_URI to use your own Neo4j instead.
set -euo pipefail
TGNEO_EXTRAS= source "$(dirname "$0")/bootstrap.sh"
if [ -z "${NEO4J_URI:-}" ]; then
  tgneo db start
  eval "$(tgneo db env)"
fi
tgneo init-schema
cat >&2 <<MSG

  Neo4j Browser   http://127.0.0.1:${TGNEO_HTTP_PORT:-7474}/browser/   (user neo4j, password: tgneo db env)
  tgneo API       http://127.0.0.1:${TGNEO_PORT:-8888}/   (try /readyz)

MSG
exec tgneo serve --port "${TGNEO_PORT:-8888}"
