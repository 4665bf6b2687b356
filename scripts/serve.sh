#!/usr/bin/env bash
# The main job: installs what it needs, builds the WebAssembly core, stages the page in the build
# tree and serves it on localhost (PORT, default 8080), printing the URL.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
port="${PORT:-8080}"
"$root/scripts/setup.sh"
"$root/scripts/stage-site.sh"
site="${SITE_DIR:-${WASM_BUILD_DIR:-$root/build-wasm}/site}"
# One server for the page everywhere (scripts/site-server.mjs: the tests and benchmarks start it too):
# each file's brotli copy to browsers that accept it, its zopfli copy to those that accept gzip, embed.js with
# Access-Control-Allow-Origin: * (docs/page.md says what any host must serve).
GPUFLEET_SITE_DIR="$site" exec node "$root/scripts/site-server.mjs" "$port"
