#!/usr/bin/env bash
# Regenerates tests/cases/*.expected.json from the native CLI. Review every diff before committing:
# a golden file is only as right as the person who checked it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" >/dev/null
bin="${BUILD_DIR:-$root/build}/core/cli/gpufleet"
for request in "$root"/tests/cases/*.request.json; do
  expected="${request%.request.json}.expected.json"
  "$bin" --config "$root/config" analyze "$request" > "$expected" || true
done
git -C "$root" status --short tests/cases
