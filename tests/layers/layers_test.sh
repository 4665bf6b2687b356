#!/usr/bin/env bash
# scripts/check-layers.py and scripts/check-function-length.py: the repository passes, and a tree with one upward include (or a door
# that reaches inside the core, or JSON in model/) fails naming the file and line.
set -uo pipefail
root="${1:?usage: layers_test.sh ROOT}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if "$@"; then echo "ok - $name"; else echo "not ok - $name"; fail=1; fi; }

name="the repository's includes go down the layers"
check python3 "$root/scripts/check-layers.py" "$root"

tree() {  # a copy of core/ and wasm/ to break
  rm -rf "$tmp/t" && mkdir -p "$tmp/t" && cp -r "$root/core" "$root/wasm" "$tmp/t/"
}
expect_failure() {  # FILE LINE_TEXT PATTERN
  printf '%s\n' "$2" >>"$tmp/t/$1"
  out=$(python3 "$root/scripts/check-layers.py" "$tmp/t")
  [ $? -ne 0 ] && grep -q "$3" <<<"$out"
}
tree; name="model/ including api/ fails at that line"
check expect_failure core/src/model/queueing.cpp '#include "api/answers.hpp"' 'core/src/model/queueing.cpp:[0-9]*: model/ includes "api/answers.hpp"'
tree; name="catalog/ including pricing/ fails"
check expect_failure core/src/catalog/catalog.cpp '#include "pricing/prices.hpp"' 'catalog/ includes "pricing/prices.hpp"'
tree; name="the CLI including a core header fails"
check expect_failure core/cli/main.cpp '#include "catalog/catalog.hpp"' 'a door includes "catalog/catalog.hpp"'
tree; name="JSON in model/ fails"
check expect_failure core/src/model/throughput.cpp '#include "support/json_reader.hpp"' 'model/ holds numbers only'
tree; name="a source directly under core/src fails"
touch "$tmp/t/core/src/loose.cpp"
check expect_failure core/src/model/queueing.cpp '' 'core/src/loose.cpp: a source outside'
name="every function of core/ is at most 150 lines (scripts/check-function-length.py)"
check python3 "$root/scripts/check-function-length.py" "$root"
tree; name="a 151-line function fails naming it"
{ echo 'int too_long() {'; for i in $(seq 149); do echo '  ;'; done; echo '}'; } >>"$tmp/t/core/src/model/queueing.cpp"
out=$(python3 "$root/scripts/check-function-length.py" "$tmp/t")
check test $? -ne 0 -a -n "$(grep 'core/src/model/queueing.cpp:[0-9]*: too_long is 151 lines' <<<"$out")"
[ "$fail" -eq 0 ] && echo "layers test: all checks passed" || echo "layers test: some checks FAILED"
exit "$fail"
