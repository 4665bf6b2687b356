#!/usr/bin/env bash
# The whole test suite: installs what it needs, builds, runs native (ctest), wasm (node) and
# browser (playwright) tests, and prints each runner's summary.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/setup.sh
scripts/build.sh
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure --parallel "$(nproc 2>/dev/null || echo 2)")
