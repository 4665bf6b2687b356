#!/usr/bin/env bash
# The whole test suite: installs what it needs, builds, and runs the price pipeline tests (python),
# the native tests (ctest), the WebAssembly tests (node) and the browser tests (playwright +
# Chromium). Each runner prints its summary; the script fails if any of them fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/setup.sh
scripts/build.sh
status=0

echo "== price pipeline tests (python unittest; compares config/prices/ with ../shared/data/prices when present)"
python3 -m unittest discover -s tests/prices -v || status=1

echo "== native tests (ctest)"
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure --parallel "$(nproc 2>/dev/null || echo 2)") || status=1

echo "== the installed library and CLI (cmake --install, find_package(gpufleet), the CLI's catalogs)"
BUILD_DIR="${BUILD_DIR:-build}" tests/install/install_test.sh || status=1

echo "== JSON Schemas (node + ajv): shipped catalogs, price files, golden requests and responses, the bad-input corpus"
node --test tests/schemas/ || status=1

echo "== native tests under AddressSanitizer + UndefinedBehaviorSanitizer (ctest)"
BUILD_DIR="$root/build-asan" BUILD_TYPE=Debug scripts/build.sh -DGPUFLEET_SANITIZE=ON >/dev/null
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure --parallel "$(nproc 2>/dev/null || echo 2)") || status=1

echo "== fuzzing the analyzer entry point (libFuzzer + ASan + UBSan, ${FUZZ_SECONDS:-60} s)"
scripts/fuzz.sh "${FUZZ_SECONDS:-60}" || status=1

echo "== WebAssembly build and site"
scripts/stage-site.sh

echo "== WebAssembly and page-module tests (node)"
node --test tests/wasm/ tests/web/ || status=1

echo "== the npm package (scripts/pack-npm.sh, npm pack, an offline install into a scratch project)"
scripts/pack-npm.sh && node --test tests/npm/ || status=1

if compgen -G "tests/browser/*.test.mjs" >/dev/null; then
  echo "== browser tests (playwright + Chromium)"
  node --test --test-concurrency=1 tests/browser/ || status=1
fi

if [ "$status" -ne 0 ]; then
  echo "test.sh: some tests FAILED"
else
  echo "test.sh: all test runners passed"
fi
exit "$status"
