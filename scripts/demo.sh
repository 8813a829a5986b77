#!/usr/bin/env bash
# The main job, from a fresh clone: a local Neo4j 5.26 (+ Browser) provisioned from Maven Central,
# tgneo's schema, the bundled sample corpus loaded with full extraction provenance, one example
# question answered with every step explained (-x), then the tgneo server on http://127.0.0.1:8888
# (Ctrl-C stops the server; Neo4j keeps running until `tgneo db stop`).
#
# Set NEO4J_URI (+ NEO4J_USERNAME, NEO4J_PASSWORD) to use your own Neo4j instead, TGNEO_PORT to serve
# on another port than 8888, TGNEO_WORKSPACE / TGNEO_COLLECTION to load and ask elsewhere than
# default/default, TGNEO_BOOTSTRAP=0 to use the tgneo on your PATH instead of installing it into .venv
# (scripts/docs.py does). tgneo is installed into .venv: the closing lines say how to put it on your PATH
# (`source .venv/bin/activate`), and every command they print works as printed in a new shell.
set -euo pipefail
called_from="$PWD"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${TGNEO_BOOTSTRAP:-1}" = 0 ]; then
  cd "$ROOT"   # the tgneo (and python) on PATH, as they are: no .venv made or installed into
else
  TGNEO_EXTRAS= source "$ROOT/scripts/bootstrap.sh"
fi
port="${TGNEO_PORT:-8888}"
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
# What the printed commands need in a shell that has none of this script's variables.
scope=""
if [ "${TGNEO_WORKSPACE:-default}" != default ]; then scope+=" --workspace $(printf %q "$TGNEO_WORKSPACE")"; fi
if [ "${TGNEO_COLLECTION:-default}" != default ]; then scope+=" --collection $(printf %q "$TGNEO_COLLECTION")"; fi
query=""   # the trace viewer's page takes the scope as query parameters
urlq() { python -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
if [ -n "$scope" ]; then
  query="?workspace=$(urlq "${TGNEO_WORKSPACE:-default}")&collection=$(urlq "${TGNEO_COLLECTION:-default}")"
fi
served=""
if [ "$port" != 8888 ]; then served=" --url http://127.0.0.1:${port}"; fi
if [ "${VIRTUAL_ENV:-}" = "$ROOT/.venv" ] || [ "$(command -v tgneo)" != "$ROOT/.venv/bin/tgneo" ]; then
  activate=""   # the caller's shell has it already, or it is not .venv's tgneo that runs
elif [ "$called_from" = "$ROOT" ]; then
  activate="  tgneo is in .venv; put it on your PATH (in each new shell):  source .venv/bin/activate"
else
  activate="  tgneo is in .venv; put it on your PATH (in each new shell):  source $(printf %q "$ROOT/.venv/bin/activate")"
fi
tgneo init-schema
questions="$(tgneo load sample)"   # idempotent: a second run finds the documents unchanged
question="${questions%%$'\n'*}"   # the first line; not `| head -n 1`, whose early exit can SIGPIPE printf (141)
printf '\n== tgneo ask -x "%s"\n\n' "$question" >&2
tgneo ask -x "$question"
more="$(printf '%s\n' "$questions" | sed 1d | while IFS= read -r q; do printf '    tgneo ask -x "%s"%s\n' "$q" "$scope"; done)"
cat >&2 <<MSG

  ${where}
  tgneo API       http://127.0.0.1:${port}/   (try /readyz)

${activate:+${activate}
}  More questions the sample answers:
${more}
    tgneo ask --engine agent -x "Compare Marie Curie and Pierre Curie"${scope}
  Look at a trace:  tgneo traces list${scope} · tgneo trace show URI${scope} · tgneo export URI${scope} --format turtle
                    (URI: the urn:trustgraph:… after "trace:" above)
  Draw it:          http://127.0.0.1:${port}/ui/trace/URI${query}  (or ask on /ui/ and watch it grow)
  In Neo4j Browser: tgneo browser${scope}${served}   (prints the :style and :play lines to type)

MSG
exec tgneo serve --port "${port}"
