# The CLI tests' shared start: sourced by each tests/cli/*_test.sh with its arguments BIN ROOT.
bin="$1"
root="$2"
failures=0
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

check() {  # check NAME CONDITION...
  local name="$1"
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
exit_code() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }
json_query() { python3 -c "import json,sys; d=json.load(open('$tmp/out')); print($1)"; }
