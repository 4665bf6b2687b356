#!/usr/bin/env bash
# The main job: installs what it needs, builds the WebAssembly core, stages the page in the build
# tree and serves it on localhost (PORT, default 8080), printing the URL.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
port="${PORT:-8080}"
"$root/scripts/setup.sh"
"$root/scripts/stage-site.sh"
site="${SITE_DIR:-${WASM_BUILD_DIR:-$root/build-wasm}/site}"
echo "gpufleet is served at http://localhost:$port/  (Ctrl-C stops it)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
