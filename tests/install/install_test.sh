#!/usr/bin/env bash
# The installed C++ library and CLI: `cmake --install` of a native build (BUILD_DIR, default
# build/) into a temporary prefix; a consumer project outside the tree (tests/install/consumer)
# finds it with find_package(gpufleet), builds and asks one question against the installed
# catalogs; the installed CLI, run from another directory without --config, finds its catalogs
# beside itself, also after the prefix is moved.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${BUILD_DIR:-$root/build}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {  # check NAME COMMAND...: runs the command, prints ok / not ok
  local name="$1"; shift
  if "$@" >"$tmp/out" 2>&1; then echo "ok - $name"; else echo "not ok - $name"; sed 's/^/    /' "$tmp/out"; fail=1; fi
}

cmake --build "$build" --target gpufleet_core gpufleet >/dev/null
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
prefix="$tmp/prefix"
check "headers, library, package files, CLI and catalogs installed" test -f "$prefix/include/gpufleet/analyzer.hpp" \
  -a -f "$prefix/lib/libgpufleet_core.a" -a -f "$prefix/lib/cmake/gpufleet/gpufleetConfig.cmake" \
  -a -f "$prefix/lib/cmake/gpufleet/gpufleetConfigVersion.cmake" -a -x "$prefix/bin/gpufleet" \
  -a -f "$prefix/share/gpufleet/config/gpu_instances.json" -a -f "$prefix/share/gpufleet/config/prices/aws/us-east-1.json"

generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
check "a consumer configures with find_package(gpufleet)" \
  cmake -S "$root/tests/install/consumer" -B "$tmp/consumer" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
check "the consumer builds against gpufleet::core" cmake --build "$tmp/consumer"
check "the consumer answers from the installed catalogs (P5 x 8 on demand: 55.04 USD/h)" \
  bash -c "'$tmp/consumer/consumer' | python3 -c 'import json,sys; a=json.load(sys.stdin); assert a[\"ok\"], a; assert a[\"result\"][\"cost\"][\"usd_per_hour\"] == 55.04, a'"
mkdir -p "$tmp/consumer9"
sed 's/find_package(gpufleet 0.1 REQUIRED)/find_package(gpufleet 9.0 REQUIRED)/' "$root/tests/install/consumer/CMakeLists.txt" >"$tmp/consumer9/CMakeLists.txt"
cp "$root/tests/install/consumer/main.cpp" "$tmp/consumer9/"
check "find_package(gpufleet 9.0) refuses the installed $(sed -n 's/^project(gpufleet VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")" \
  bash -c "! cmake -S '$tmp/consumer9' -B '$tmp/consumer9/build' -DCMAKE_PREFIX_PATH='$prefix'"

# The installed CLI from elsewhere, without --config or GPUFLEET_CONFIG.
mkdir -p "$tmp/elsewhere"
check "the installed CLI says it uses the installed catalogs" \
  bash -c "cd '$tmp/elsewhere' && env -u GPUFLEET_CONFIG '$prefix/bin/gpufleet' --version | grep -qF 'catalogs: $prefix/share/gpufleet/config (installed with the executable)'"
check "the installed CLI answers without --config" \
  bash -c "cd '$tmp/elsewhere' && env -u GPUFLEET_CONFIG '$prefix/bin/gpufleet' --json cost --instance P5 --gpus 8 | grep -q '\"usd_per_hour\": 55.04'"
check "catalog check names the installed catalogs" \
  bash -c "cd '$tmp/elsewhere' && env -u GPUFLEET_CONFIG '$prefix/bin/gpufleet' catalog check | grep -q '^catalogs: .*(installed with the executable)'"
mv "$prefix" "$tmp/moved"
check "a moved prefix still finds its catalogs" \
  bash -c "cd '$tmp/elsewhere' && env -u GPUFLEET_CONFIG '$tmp/moved/bin/gpufleet' --version | grep -qF '$tmp/moved/share/gpufleet/config'"
check "GPUFLEET_CONFIG wins over the installed catalogs" \
  bash -c "cd '$tmp/elsewhere' && GPUFLEET_CONFIG='$root/config' '$tmp/moved/bin/gpufleet' --version | grep -qF 'catalogs: $root/config (from GPUFLEET_CONFIG)'"
check "a GPUFLEET_CONFIG without catalogs is a clear error (exit 3)" \
  bash -c "cd '$tmp/elsewhere'; GPUFLEET_CONFIG='$tmp/elsewhere' '$tmp/moved/bin/gpufleet' catalog check 2>&1; test \$? -eq 3"
rm -rf "$tmp/moved/share"
check "without installed catalogs it falls back to the source tree and says so" \
  bash -c "cd '$tmp/elsewhere' && env -u GPUFLEET_CONFIG '$tmp/moved/bin/gpufleet' --version | grep -q '(the source tree it was built from)'"

[ "$fail" -eq 0 ] && echo "install test: all checks passed" || echo "install test: some checks FAILED"
exit "$fail"
