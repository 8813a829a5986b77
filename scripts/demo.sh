#!/usr/bin/env bash
# The main job, from a fresh clone: a local Neo4j 5.26 (+ Browser) provisioned from Maven Central,
# tgneo's schema, the bundled sample corpus loaded with full extraction provenance, one example
# question answered with every step explained (-x), then the tgneo server on http://127.0.0.1:8888
# (Ctrl-C stops the server; Neo4j keeps running until `tgneo db stop`). Set NEO4J_URI to use your
# own Neo4j instead.
set -euo pipefail
TGNEO_EXTRAS= source "$(dirname "$0")/bootstrap.sh"
if [ -z "${NEO4J_URI:-}" ]; then
  tgneo db start >&2   # its Bolt URI is for people here, not for a pipe
  eval "$(tgneo db env)"
  tgneo db migrate --quiet   # an instance an earlier tgneo wrote moves to the current graph model, once
  # The Browser of the instance that actually runs (it may have been started earlier on other ports).
  browser="$(tgneo db status --json | python -c 'import json, sys; print(json.load(sys.stdin)["browser"])')"
  where="Neo4j Browser   ${browser}   (user neo4j, password: tgneo db env)"
else
  where="Neo4j           ${NEO4J_URI}"
fi
tgneo init-schema
questions="$(tgneo load sample)"   # idempotent: a second run finds the documents unchanged
question="$(printf '%s\n' "$questions" | head -n 1)"
printf '\n== tgneo ask -x "%s"\n\n' "$question" >&2
tgneo ask -x "$question"
cat >&2 <<MSG

  ${where}
  tgneo API       http://127.0.0.1:${TGNEO_PORT:-8888}/   (try /readyz)

  More questions the sample answers:
$(printf '%s\n' "$questions" | sed '1d; s/^/    tgneo ask -x "/; s/$/"/')
    tgneo ask --engine agent -x "Compare Marie Curie and Pierre Curie"
  Look at a trace:  tgneo traces list · tgneo trace show URI · tgneo export URI --format turtle
  Draw it:          http://127.0.0.1:${TGNEO_PORT:-8888}/ui/trace/URI  (or ask on /ui/ and watch it grow)
  In Neo4j Browser: tgneo browser   (prints the :style and :play lines to type)

MSG
exec tgneo serve --port "${TGNEO_PORT:-8888}"
