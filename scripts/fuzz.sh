#!/usr/bin/env bash
# Fuzzes the analyzer core (Analyzer::analyze_json) with libFuzzer + AddressSanitizer/LeakSanitizer +
# UndefinedBehaviorSanitizer, as two targets (tests/fuzz/README.md):
#   request  build-fuzz/fuzz_request: requests against the shipped catalog and price files, parsed
#            once per process (each execution is one question);
#   catalog  build-fuzz/fuzz_catalog: catalog files and price files, each input a new Analyzer.
#
#   scripts/fuzz.sh [SECONDS]        (default 60: the whole run takes about SECONDS)
#
# Builds both targets from core/src/**/*.cpp and tests/fuzz/*.cpp, runs the reproducers of
# tests/fuzz/regressions/{request,catalog}/ once, copies the committed seed corpora
# tests/fuzz/corpus/{request,catalog}/ into build-fuzz/corpus-{request,catalog}/ (the working
# corpora; the committed ones are never modified), fuzzes, writes crash/leak/timeout/oom
# reproducers to build-fuzz/artifacts/, prints a line per target
#
#   fuzz: request executions=N seconds=S exec_per_s=R cpu_seconds=C exec_per_cpu_s=R edges=E features=F corpus=C
#
# and ends with one line:
#
#   fuzz: executions=N seconds=S crashes=K
#
# Exits non-zero when any artifact was produced (or the build failed). Environment:
#   FUZZ_JOBS=N         2 (default, at most the cores): both targets at once, each for SECONDS;
#                       1: the request target for 2/3 of SECONDS, then the catalog target
#   FUZZ_TARGET=T       request or catalog: only that target, for SECONDS (default: both)
#   FUZZ_ARGS="..."     extra libFuzzer flags
#   CXX=...             compiler (default clang++)
#   FUZZ_CORE_DIR=DIR   build against another copy of core/ (e.g. a locally patched one) instead
#   FUZZ_FRESH=1        start the working corpora again from the seeds
# Reproduce one artifact:  build-fuzz/fuzz_request build-fuzz/artifacts/crash-...  (or fuzz_catalog)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: scripts/fuzz.sh [SECONDS]" >&2
  exit 2
fi
only="${FUZZ_TARGET:-}"
case "$only" in ""|request|catalog) ;; *) echo "fuzz: FUZZ_TARGET is request or catalog" >&2; exit 2 ;; esac

scripts/setup.sh

CXX="${CXX:-clang++}"
out=build-fuzz
# FUZZ_CORE_DIR: fuzz another copy of core/ (a patched one, while triaging); default core
core="${FUZZ_CORE_DIR:-core}"
core="${core%/}"
suffix=""
objdir="$out/obj"
if [ "$core" != core ]; then
  tag=$(echo "$core" | tr -c 'A-Za-z0-9_\n-' _)
  suffix="-$tag"
  objdir="$out/obj-$tag"
fi
# Built like the WebAssembly core: no exceptions, nlohmann_json aborting on any misuse, so the
# fuzzer finds every throw that would abort the module in a browser; with the native accuracy
# harness (GPUFLEET_ACCURACY) so that every question kind is fuzzed.
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -fno-exceptions -DJSON_NOEXCEPTION -DGPUFLEET_ACCURACY=1 -I "$core"/include -I "$core"/src -I "$core" -I tests/fuzz)
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
sources+=(tests/fuzz/fuzz_check.cpp)
newest_header=$(find "$core"/include "$core"/src "$core"/tools tests/fuzz -name '*.hpp' -printf '%T@ %p\n' | sort -n | tail -n 1 | cut -d" " -f2-)
object_of() { echo "$objdir/$(echo "$1" | tr '/' '_').o"; }
stale=()
objects=()
for src in "${sources[@]}" tests/fuzz/fuzz_request.cpp tests/fuzz/fuzz_catalog.cpp; do
  obj=$(object_of "$src")
  case "$src" in tests/fuzz/fuzz_request.cpp|tests/fuzz/fuzz_catalog.cpp) ;; *) objects+=("$obj") ;; esac
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_header" -nt "$obj" ]; then stale+=("$src"); fi
done
if [ ${#stale[@]} -gt 0 ]; then
  echo "fuzz: compiling ${#stale[@]} source(s)"
  printf '%s\n' "${stale[@]}" | CXX="$CXX" OBJDIR="$objdir" xargs -P 2 -I{} sh -c \
    'src="$1"; shift; "$CXX" "$@" -c "$src" -o "$OBJDIR/$(echo "$src" | tr / _).o"' sh {} "${flags[@]}" \
    || { echo "fuzz: build failed" >&2; exit 1; }
fi
for target in request catalog; do
  bin="$out/fuzz_$target$suffix"
  main=$(object_of "tests/fuzz/fuzz_$target.cpp")
  if [ ! -f "$bin" ] || [ -n "$(find "$objdir" -name '*.o' -newer "$bin")" ]; then
    "$CXX" "${flags[@]}" "${objects[@]}" "$main" -o "$bin"
  fi
done

# Regressions first: every saved reproducer must now pass.
for target in request catalog; do
  if compgen -G "tests/fuzz/regressions/$target/*" >/dev/null; then
    echo "fuzz: running $(ls "tests/fuzz/regressions/$target" | wc -l) $target regression input(s)"
    if ! GPUFLEET_CONFIG_DIR=config UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
        "$out/fuzz_$target$suffix" -runs=1 "tests/fuzz/regressions/$target"/* >"$out/regressions-$target.log" 2>&1; then
      tail -n 60 "$out/regressions-$target.log" >&2
      echo "fuzz: a $target regression input fails (see $out/regressions-$target.log)" >&2
      echo "fuzz: executions=0 seconds=0 crashes=1"
      exit 1
    fi
  fi
done

# Working corpora: the committed seeds plus what earlier runs found. Each job replays its whole
# corpus before it mutates, so past 3000 inputs one is merged down to those that add coverage.
mkdir -p "$out/artifacts" "$out/logs"
for target in request catalog; do
  corpus="$out/corpus-$target"
  if [ "${FUZZ_FRESH:-0}" = 1 ]; then rm -rf "$corpus"; fi
  mkdir -p "$corpus"
  if [ "$(ls "$corpus" | wc -l)" -gt 3000 ]; then
    echo "fuzz: merging the $target corpus ($(ls "$corpus" | wc -l) inputs)"
    rm -rf "$corpus.merged" && mkdir -p "$corpus.merged"
    if GPUFLEET_CONFIG_DIR=config "$out/fuzz_$target$suffix" -merge=1 -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        "$corpus.merged" "$corpus" >"$out/merge-$target.log" 2>&1; then
      rm -rf "$corpus" && mv "$corpus.merged" "$corpus"
    else
      echo "fuzz: merge failed (see $out/merge-$target.log); keeping the corpus as it is" >&2
    fi
  fi
  cp -n "tests/fuzz/corpus/$target"/* "$corpus/" 2>/dev/null || true
done
artifacts_before=$(find "$out/artifacts" -type f | wc -l)

cores=$(nproc 2>/dev/null || echo 1)
jobs="${FUZZ_JOBS:-2}"
[ "$jobs" -gt "$cores" ] && jobs="$cores"
[ "$jobs" -gt 2 ] && jobs=2
[ "$jobs" -lt 1 ] && jobs=1

# shellcheck disable=SC2206
extra=(${FUZZ_ARGS:-})
rm -f "$out"/logs/*.log
touch "$out/logs/.start"
fuzz_one() {  # TARGET SECONDS
  echo "fuzz: $1 for ${2}s, corpus $out/corpus-$1 ($(ls "$out/corpus-$1" | wc -l) inputs)"
  (
    code=0
    GPUFLEET_CONFIG_DIR=config UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
      "$out/fuzz_$1$suffix" -max_total_time="$2" -dict=tests/fuzz/gpufleet.dict -rss_limit_mb=2048 -timeout=10 \
      -max_len=65536 -print_final_stats=1 -artifact_prefix="$out/artifacts/" -seed="$(( $(date +%s) + ${#1} ))" \
      "${extra[@]}" "$out/corpus-$1" >"$out/logs/$1.log" 2>&1 || code=$?
    # the CPU time the fuzzer had (user + system): on a shared machine, executions per CPU second
    # say what one core would do
    times >"$out/logs/$1.times"  # (not piped: a pipeline's times are its own subshell's)
    tail -n 1 "$out/logs/$1.times" >"$out/logs/$1.cpu"
    exit "$code"
  )
}
start=$(date +%s)
status=0
if [ -n "$only" ]; then
  fuzz_one "$only" "$seconds" || status=1
elif [ "$jobs" -ge 2 ]; then
  fuzz_one request "$seconds" & request_pid=$!
  fuzz_one catalog "$seconds" & catalog_pid=$!
  wait "$request_pid" || status=1
  wait "$catalog_pid" || status=1
else
  catalog_seconds=$(( seconds / 3 > 0 ? seconds / 3 : 1 ))
  request_seconds=$(( seconds - catalog_seconds > 0 ? seconds - catalog_seconds : 1 ))
  fuzz_one request "$request_seconds" || status=1
  fuzz_one catalog "$catalog_seconds" || status=1
fi
elapsed=$(( $(date +%s) - start ))

executions=0
for log in "$out"/logs/*.log; do
  target=$(basename "$log" .log)
  n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*$' || true)
  t=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -n 1 | grep -o 'in [0-9]*' | grep -o '[0-9]*' || true)
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' "$log" | tail -n 1 || true)
  edges=$(echo "$cov" | awk '{print $2}')
  features=$(echo "$cov" | awk '{print $4}')
  inputs=$(echo "$cov" | awk '{print $6}')
  t=${t:-0}
  rate=0
  [ "$t" -gt 0 ] && rate=$(( ${n:-0} / t ))
  cpu=$(awk '{ s = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } printf "%.0f", s }' "$out/logs/$target.cpu" 2>/dev/null || echo 0)
  cpu_rate=0
  [ "${cpu:-0}" -gt 0 ] && cpu_rate=$(( ${n:-0} / cpu ))
  echo "fuzz: $target executions=${n:-0} seconds=$t exec_per_s=$rate cpu_seconds=${cpu:-0} exec_per_cpu_s=$cpu_rate edges=${edges:-?} features=${features:-?} corpus=${inputs:-?}"
  executions=$((executions + ${n:-0}))
done
artifacts_after=$(find "$out/artifacts" -type f | wc -l)
crashes=$((artifacts_after - artifacts_before))

if [ "$crashes" -gt 0 ] || [ "$status" -ne 0 ]; then
  for log in "$out"/logs/*.log; do
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
