#!/usr/bin/env bash
# Builds the WebAssembly core with emcmake into build-wasm/ (WASM_BUILD_DIR overrides) and prints
# the size of each artifact, raw and gzipped.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${WASM_BUILD_DIR:-$root/build-wasm}"
# Debian's emcc runs its JS optimizer with the machine's node, which needs Debian's module folder.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
# Size settings measured by scripts/bench.sh (docs/performance.md): the core compiled for
# link-time optimization at -Oz (GPUFLEET_WASM_CORE_OPT) with -finline-functions and an inlining
# threshold of 5 (wasm/CMakeLists.txt links with the same), with bulk memory (memcpy is one
# memory.copy) and non-trapping float-to-int conversions (no clamping code around each one): both in
# every browser since 2021, 240 bytes smaller and a few percent faster. Emscripten's -Oz alone passes
# -fno-inline-functions, which leaves even std::string::size() a call: 2.6x slower sweep; with
# inlining at the -O3 threshold the core is 40 % larger. binaryen links at -Oz and runs once more
# at -O3 over the linked module (wasm/CMakeLists.txt): 7 KB smaller than -O3 alone, as fast.
# Passed on every run so that an existing
# build tree follows them; configuring again is quick and rebuilds only what changed.
if ! log=$(emcmake cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${WASM_BUILD_TYPE:-Release}" \
    -DCMAKE_CXX_FLAGS="-flto -fno-rtti -finline-functions -mllvm -inline-threshold=5 -mbulk-memory -mnontrapping-fptoint" -DGPUFLEET_WASM_CORE_OPT="-Oz" \
    -DGPUFLEET_WASM_INLINE_THRESHOLD=5 -DGPUFLEET_WASM_LINK_OPT="${GPUFLEET_WASM_LINK_OPT:--Oz}" \
    -DGPUFLEET_WASM_POST_OPT="${GPUFLEET_WASM_POST_OPT--O3}" 2>&1); then
  echo "$log" >&2
  exit 1
fi
cmake --build "$build" --parallel "$(nproc 2>/dev/null || echo 2)" >/dev/null
out="$build/wasm"
for f in "$out/gpufleet_core.mjs" "$out/gpufleet_core.wasm" "$out/page/gpufleet_core.wasm"; do
  raw=$(stat -c %s "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  printf 'wasm artifact %-27s %8d bytes raw %8d bytes gzipped\n' "${f#"$out/"}" "$raw" "$gz"
done
# The facade and its typings sit beside each module (page/: the page's, wasm/CMakeLists.txt).
cp "$root/wasm/gpufleet.js" "$root/wasm/gpufleet.d.ts" "$root/wasm/requests.d.ts" "$out/"
cp "$root/wasm/gpufleet.js" "$root/wasm/gpufleet.d.ts" "$root/wasm/requests.d.ts" "$out/page/"
