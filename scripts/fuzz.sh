#!/usr/bin/env bash
# Fuzzes the analyzer core (Analyzer::analyze_json, over fuzzed requests and fuzzed catalogs) with
# libFuzzer + AddressSanitizer/LeakSanitizer + UndefinedBehaviorSanitizer.
#
#   scripts/fuzz.sh [SECONDS]        (default 60)
#
# Builds build-fuzz/fuzz_analyzer from core/src/**/*.cpp and tests/fuzz/fuzz_analyzer.cpp, copies
# the committed seed corpus tests/fuzz/corpus/ into build-fuzz/corpus/ (the working corpus; the
# committed one is never modified), fuzzes for SECONDS, writes crash/leak/timeout/oom reproducers
# to build-fuzz/artifacts/, and ends with one line:
#
#   fuzz: executions=N seconds=S crashes=K
#
# Exits non-zero when any artifact was produced (or the build failed). Environment:
#   FUZZ_JOBS=N         parallel fuzzing processes (default 2, at most the number of cores)
#   FUZZ_ARGS="..."     extra libFuzzer flags
#   CXX=...             compiler (default clang++)
#   FUZZ_CORE_DIR=DIR   build against another copy of core/ (e.g. a locally patched one) instead
#   FUZZ_FRESH=1        start the working corpus again from the seeds
# Reproduce one artifact:  build-fuzz/fuzz_analyzer build-fuzz/artifacts/crash-...
# Each file of tests/fuzz/regressions/ is run once before fuzzing (they must not crash).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: scripts/fuzz.sh [SECONDS]" >&2
  exit 2
fi

scripts/setup.sh

CXX="${CXX:-clang++}"
out=build-fuzz
# FUZZ_CORE_DIR: fuzz another copy of core/ (a patched one, while triaging); default core
core="${FUZZ_CORE_DIR:-core}"
core="${core%/}"
bin="$out/fuzz_analyzer"
objdir="$out/obj"
if [ "$core" != core ]; then
  tag=$(echo "$core" | tr -c 'A-Za-z0-9_\n-' _)
  bin="$out/fuzz_analyzer-$tag"
  objdir="$out/obj-$tag"
fi
# Built like the WebAssembly core: no exceptions, nlohmann_json aborting on any misuse, so the
# fuzzer finds every throw that would abort the module in a browser; with the native accuracy
# harness (GPUFLEET_ACCURACY) so that every question kind is fuzzed.
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -fno-exceptions -DJSON_NOEXCEPTION -DGPUFLEET_ACCURACY=1 -I "$core"/include -I "$core"/src -I "$core")
mkdir -p "$objdir" "$out/generated/api"
# What core/CMakeLists.txt generates: autoscale's traffic shapes compiled in as text.
python3 - "$core/src/api/traffic_shapes.inc.in" config/traffic_shapes.json "$out/generated/api/traffic_shapes.inc" <<'PY'
import sys
template, shapes, target = sys.argv[1:4]
text = open(template).read().replace("@GPUFLEET_TRAFFIC_SHAPES@", open(shapes).read())
try:
    unchanged = open(target).read() == text
except OSError:
    unchanged = False
if not unchanged:
    open(target, "w").write(text)
PY
flags+=(-I "$out/generated")

# Build: one object per source (2 at a time), relinked only when a source or header changed.
mapfile -t sources < <(find "$core"/src "$core"/tools -name '*.cpp' | sort)
sources+=(tests/fuzz/fuzz_analyzer.cpp)
newest_header=$(find "$core"/include "$core"/src "$core"/tools -name '*.hpp' -printf '%T@ %p\n' | sort -n | tail -n 1 | cut -d" " -f2-)
stale=()
objects=()
for src in "${sources[@]}"; do
  obj="$objdir/$(echo "$src" | tr '/' '_').o"
  objects+=("$obj")
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_header" -nt "$obj" ]; then stale+=("$src"); fi
done
if [ ${#stale[@]} -gt 0 ]; then
  echo "fuzz: compiling ${#stale[@]} source(s)"
  printf '%s\n' "${stale[@]}" | CXX="$CXX" OBJDIR="$objdir" xargs -P 2 -I{} sh -c \
    'src="$1"; shift; "$CXX" "$@" -c "$src" -o "$OBJDIR/$(echo "$src" | tr / _).o"' sh {} "${flags[@]}" \
    || { echo "fuzz: build failed" >&2; exit 1; }
fi
if [ ! -f "$bin" ] || [ -n "$(find "$objdir" -name '*.o' -newer "$bin")" ]; then
  "$CXX" "${flags[@]}" "${objects[@]}" -o "$bin"
fi

# Regressions first: every saved reproducer must now pass.
if compgen -G "tests/fuzz/regressions/*" >/dev/null; then
  echo "fuzz: running $(ls tests/fuzz/regressions | wc -l) regression input(s)"
  if ! GPUFLEET_CONFIG_DIR=config UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
      "$bin" -runs=1 tests/fuzz/regressions/* >"$out/regressions.log" 2>&1; then
    tail -n 60 "$out/regressions.log" >&2
    echo "fuzz: a regression input fails (see $out/regressions.log)" >&2
    echo "fuzz: executions=0 seconds=0 crashes=1"
    exit 1
  fi
fi

# Working corpus: the committed seeds plus what earlier runs found.
mkdir -p "$out/corpus" "$out/artifacts" "$out/logs"
# every job replays the whole working corpus before it mutates, so keep it small: past 3000 inputs
# it is merged down to those that add coverage (FUZZ_FRESH=1 starts again from the seeds)
if [ "${FUZZ_FRESH:-0}" = 1 ]; then
  rm -rf "$out/corpus" && mkdir -p "$out/corpus"
elif [ "$(ls "$out/corpus" | wc -l)" -gt 3000 ]; then
  echo "fuzz: merging the working corpus ($(ls "$out/corpus" | wc -l) inputs)"
  rm -rf "$out/corpus.merged" && mkdir -p "$out/corpus.merged"
  if GPUFLEET_CONFIG_DIR=config "$bin" -merge=1 -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      "$out/corpus.merged" "$out/corpus" >"$out/merge.log" 2>&1; then
    rm -rf "$out/corpus" && mv "$out/corpus.merged" "$out/corpus"
  else
    echo "fuzz: merge failed (see $out/merge.log); keeping the corpus as it is" >&2
  fi
fi
cp -n tests/fuzz/corpus/* "$out/corpus/" 2>/dev/null || true
artifacts_before=$(find "$out/artifacts" -type f | wc -l)

cores=$(nproc 2>/dev/null || echo 1)
jobs="${FUZZ_JOBS:-2}"
[ "$jobs" -gt "$cores" ] && jobs="$cores"
[ "$jobs" -gt 2 ] && jobs=2
[ "$jobs" -lt 1 ] && jobs=1

common=(-max_total_time="$seconds" -dict=tests/fuzz/gpufleet.dict -rss_limit_mb=2048 -timeout=10
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$out/artifacts/")
# shellcheck disable=SC2206
extra=(${FUZZ_ARGS:-})
rm -f "$out"/logs/*.log
touch "$out/logs/.start"
echo "fuzz: $jobs job(s) for ${seconds}s, corpus $out/corpus ($(ls "$out/corpus" | wc -l) inputs)"
start=$(date +%s)
pids=()
for i in $(seq 1 "$jobs"); do
  # each job runs until the time is up; libFuzzer's -jobs would restart finished jobs, so plain
  # background processes sharing the corpus directory are used instead (-reload picks up each
  # other's finds)
  GPUFLEET_CONFIG_DIR=config UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
    "$bin" "${common[@]}" -seed="$((start + i))" -reload=10 "${extra[@]}" "$out/corpus" \
    >"$out/logs/job$i.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
elapsed=$(( $(date +%s) - start ))

executions=0
for log in "$out"/logs/job*.log; do
  n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*$' || true)
  executions=$((executions + ${n:-0}))
done
artifacts_after=$(find "$out/artifacts" -type f | wc -l)
crashes=$((artifacts_after - artifacts_before))

if [ "$crashes" -gt 0 ] || [ "$status" -ne 0 ]; then
  for log in "$out"/logs/job*.log; do
    if grep -q -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error|invariant violated' "$log"; then
      echo "---- $log" >&2
      grep -E -A 40 'ERROR: |runtime error|invariant violated' "$log" | head -n 80 >&2
    fi
  done
  find "$out/artifacts" -type f -newer "$out/logs/.start" -printf 'fuzz: artifact %p\n' 2>/dev/null || true
  [ "$crashes" -eq 0 ] && crashes=1
fi
echo "fuzz: executions=$executions seconds=$elapsed crashes=$crashes"
[ "$crashes" -eq 0 ]
