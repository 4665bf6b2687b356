#!/usr/bin/env bash
# Builds the WebAssembly core with emcmake into build-wasm/ (WASM_BUILD_DIR overrides) and prints
# the size of each artifact, raw and gzipped.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${WASM_BUILD_DIR:-$root/build-wasm}"
# Debian's emcc runs its JS optimizer with the machine's node, which needs Debian's module folder.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
if [ ! -f "$build/CMakeCache.txt" ] || [ ! -f "$build/Makefile" ]; then
  emcmake cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=${WASM_BUILD_TYPE:-Release} >/dev/null
fi
cmake --build "$build" --parallel "$(nproc 2>/dev/null || echo 2)" >/dev/null
out="$build/wasm"
for f in "$out/gpufleet_core.mjs" "$out/gpufleet_core.wasm"; do
  raw=$(stat -c %s "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  printf 'wasm artifact %-22s %8d bytes raw %8d bytes gzipped\n' "$(basename "$f")" "$raw" "$gz"
done
# The facade and its typings sit beside the module.
cp "$root/wasm/gpufleet.js" "$root/wasm/gpufleet.d.ts" "$out/"
