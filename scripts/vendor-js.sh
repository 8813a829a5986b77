#!/usr/bin/env bash
# Vendor the viewer's JavaScript (tgneo/web/static/vendor/) from the npm registry: `npm pack` each pinned
# package into a temporary folder and copy its built browser file and licence. The copies are committed,
# so the viewer needs no network at run time (no CDN); run this only to change a version.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/tgneo/web/static/vendor"
# package@version  built file inside the package
PACKAGES=(
  "cytoscape@3.34.4 dist/cytoscape.min.js"
)
command -v npm >/dev/null || { echo "vendor-js.sh needs npm (Debian: apt-get install npm)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$DEST"
: > "$work/VERSIONS"
for entry in "${PACKAGES[@]}"; do
  spec="${entry%% *}" file="${entry#* }"
  name="${spec%@*}"
  (cd "$work" && npm pack --silent "$spec" >/dev/null)
  mkdir -p "$work/$name" && tar -xzf "$work"/"${name//\//-}"-*.tgz -C "$work/$name"
  cp "$work/$name/package/$file" "$DEST/"
  cp "$work/$name/package/LICENSE" "$DEST/LICENSE.$name"
  licence="$(node -p "require('$work/$name/package/package.json').license")"
  echo "$spec $(basename "$file") $licence" >> "$work/VERSIONS"
done
{ echo "# package@version  file  licence — written by scripts/vendor-js.sh from the npm registry"; cat "$work/VERSIONS"; } \
  > "$DEST/VERSIONS"
echo "vendored into $DEST:" >&2 && cat "$DEST/VERSIONS" >&2
