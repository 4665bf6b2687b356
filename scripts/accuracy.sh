#!/usr/bin/env bash
# The accuracy harness: predicts every measurement case (schema: tests/data/cases/CASES.md) with the
# memory model and compares it with what was measured. One row per case (id, confidence,
# predicted, measured, error %), then one summary line per quantity:
#   memory: n=N median_abs_err_pct=X p90_abs_err_pct=Y max_abs_err_pct=Z skipped=K
#   throughput: n=N ...
# n counts the high- and medium-confidence cases predicted; skipped, those of them that were not.
#   scripts/accuracy.sh [--format table|markdown|csv|json] [FILE...]   (default: tests/data/cases/*.json)
# By default the *_public.json files (cases gathered from public sources, never used to tune the model)
# are reported apart, first, with their own summary lines; the last two lines stay those of the other
# files. With --format json and no FILE, only the other files are reported (one JSON document).
# Builds the CLI first when needed (as scripts/gpufleet does), or runs the binary named by
# GPUFLEET_BIN as it is. Exit status: the CLI's (3 = a file could not be read or is not an array of
# cases), or 1 when the output does not end with the two summary lines.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
format=()
if [ "${1:-}" = "--format" ]; then
  format=(--format "$2")
  shift 2
fi
files=("$@")
public=()
if [ "${#files[@]}" -eq 0 ]; then
  for f in "$root"/tests/data/cases/*.json; do
    case "$f" in *_public.json) public+=("$f") ;; *) files+=("$f") ;; esac
  done
fi
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
status=0
cli=("$root/scripts/gpufleet")
[ -n "${GPUFLEET_BIN:-}" ] && cli=("$GPUFLEET_BIN")
if [ "${#public[@]}" -gt 0 ] && { [ "${#format[@]}" -eq 0 ] || [ "${format[1]}" != json ]; }; then
  echo "# public cases (reported apart, not used to tune anything): ${public[*]##*/}"
  "${cli[@]}" --config "$root/config" "${format[@]}" accuracy "${public[@]}" || exit $?
  echo "# dev cases: ${files[*]##*/}"
fi
"${cli[@]}" --config "$root/config" "${format[@]}" accuracy "${files[@]}" >"$out" || status=$?
cat "$out"
if [ "$status" -eq 0 ] && { [ "${#format[@]}" -eq 0 ] || [ "${format[1]}" != json ]; }; then
  # The last two lines are the summary; anything else means the harness changed its output.
  pattern='^%s: n=[0-9]+ median_abs_err_pct=[0-9.]+ p90_abs_err_pct=[0-9.]+ max_abs_err_pct=[0-9.]+ skipped=[0-9]+$'
  # shellcheck disable=SC2059
  if ! tail -n 2 "$out" | head -n 1 | grep -Eq "$(printf "$pattern" memory)" ||
     ! tail -n 1 "$out" | grep -Eq "$(printf "$pattern" throughput)"; then
    echo "accuracy.sh: the output does not end with the memory: and throughput: summary lines" >&2
    exit 1
  fi
fi
exit "$status"
