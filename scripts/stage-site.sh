#!/usr/bin/env bash
# Builds the WebAssembly core and stages the static site in build-wasm/site (SITE_DIR overrides):
# web/ + the wasm module and facade under gpufleet/ + the catalogs under config/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${WASM_BUILD_DIR:-$root/build-wasm}"
site="${SITE_DIR:-$build/site}"
"$root/scripts/build-wasm.sh"
rm -rf "$site"
mkdir -p "$site/gpufleet" "$site/config"
cp -R "$root/web/." "$site/"
cp "$build/wasm/gpufleet.js" "$build/wasm/gpufleet.d.ts" "$build/wasm/gpufleet_core.mjs" \
   "$build/wasm/gpufleet_core.wasm" "$site/gpufleet/"
cp "$root"/config/*.json "$site/config/"
echo "site staged in $site"
