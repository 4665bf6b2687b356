#!/usr/bin/env bash
# The CLI's edges (issue 39): arguments and files that are not UTF-8, catalog folders with symlink
# loops or too many entries, an answer that cannot be written, control characters in catalog
# strings, and the numbers inside option values (NAME=GB, NAME:PARAMS_B, REGION=SHARE).
set -uo pipefail
source "$(dirname "$0")/check.sh"

# Arguments that are not UTF-8: a usage error naming the argument (it was SIGABRT, exit 134).
check "a --model value that is not UTF-8 exits 2" test "$(exit_code "$bin" fit --model $'\xff\xfe' --gpu L4)" = 2
check "  naming the argument and its option" grep -q 'argument 3 (the value of --model) is not valid UTF-8: "\\xff\\xfe"' "$tmp/err"
check "--option=VALUE that is not UTF-8 exits 2" test "$(exit_code "$bin" recommend --size small --region=$'us\xc3')" = 2
check "  naming the option" grep -q "(--region) is not valid UTF-8" "$tmp/err"
check "an overlong encoding (C0 AF) is not UTF-8" test "$(exit_code "$bin" cost --instance $'\xc0\xaf')" = 2
check "a surrogate (ED A0 80) is not UTF-8" test "$(exit_code "$bin" cost --instance $'\xed\xa0\x80')" = 2
check "valid UTF-8 passes to the core (an unknown instance: 3)" test "$(exit_code "$bin" cost --instance 'p5é')" = 3

# Files that are not UTF-8: a usage error naming the file.
printf '{"question": "cost", "instance": "\xff"}' >"$tmp/latin1.json"
check "analyze FILE that is not UTF-8 exits 2" test "$(exit_code "$bin" analyze "$tmp/latin1.json")" = 2
check "  naming the file and the offset" grep -q "latin1.json: is not valid UTF-8 text (the first bad byte is at offset 34)" "$tmp/err"
check "analyze - (stdin) that is not UTF-8 exits 2" test "$("$bin" analyze - <"$tmp/latin1.json" >/dev/null 2>&1; echo $?)" = 2
printf 'timestamp,requests\n2024-01-01T00:00:00Z,\xff\n' >"$tmp/latin1.csv"
check "autoscale --csv that is not UTF-8 exits 2 (was SIGABRT)" \
  test "$(exit_code "$bin" autoscale --model llama-3.1-8b --csv "$tmp/latin1.csv")" = 2
printf '{"model_type": "llama\xff"}' >"$tmp/config.json"
check "--hf-config that is not UTF-8 exits 2" test "$(exit_code "$bin" fit --hf-config "$tmp/config.json" --gpu L4)" = 2

# Catalog folders: a symlink loop is an error naming it (it was SIGABRT), never followed.
cp -r "$root/config" "$tmp/loop"
ln -s self "$tmp/loop/prices/self"
ln -s b.json "$tmp/loop/prices/aws/a.json"
ln -s a.json "$tmp/loop/prices/aws/b.json"
check "catalog check with symlink loops under prices/ exits 3" test "$(exit_code "$bin" --config "$tmp/loop" catalog check)" = 3
check "  naming the looping folder" grep -q "prices/self" "$tmp/err"
check "  naming the looping file" grep -q "prices/aws/a.json" "$tmp/err"
check "a question on that catalog exits 3, not 134" test "$(exit_code "$bin" --config "$tmp/loop" cost --instance g6.xlarge)" = 3
# A prices folder with more entries than the bound is refused, not read for minutes.
cp -r "$root/config" "$tmp/many"
mkdir "$tmp/many/prices/flood"
(cd "$tmp/many/prices/flood" && seq 1 10001 | sed 's/$/.txt/' | xargs touch)
check "a prices folder over 10000 entries exits 3" test "$(exit_code "$bin" --config "$tmp/many" catalog check)" = 3
check "  saying the bound" grep -q "at most 10000 entries under prices/" "$tmp/err"

# An answer that cannot be written: an error exit (5) with a message, never 0 with the answer lost.
status_of() { "$@"; echo $?; }
check "answer to /dev/full exits 5" test "$( ("$bin" catalog show instances >/dev/full 2>"$tmp/err"); echo $?)" = 5
check "  and says so on stderr" grep -q "could not be written to standard output: No space left on device" "$tmp/err"
check "--json answer to /dev/full exits 5" test "$( ("$bin" --json workloads >/dev/full 2>/dev/null); echo $?)" = 5
check "--help to /dev/full exits 5" test "$( ("$bin" --help >/dev/full 2>/dev/null); echo $?)" = 5
check "answer to a closed stdout exits 5" test "$( ("$bin" workloads >&- 2>"$tmp/err"); echo $?)" = 5
check "  and says so" grep -q "could not be written" "$tmp/err"
# A reader that closes the pipe at once: the CLI reads its catalogs first, so the pipe is closed when
# it writes (EPIPE, not a silent SIGPIPE death).
"$bin" --json catalog show all 2>"$tmp/err" | (exec 0<&-; exit 0)
check "answer into a closed pipe exits 5" test "${PIPESTATUS[0]}" = 5
check "  and says so" grep -q "could not be written to standard output: Broken pipe" "$tmp/err"

# Control characters in catalog strings reach no terminal raw, colour on or off.
cp -r "$root/config" "$tmp/esc"
python3 - "$tmp/esc/workloads.json" <<'PY'
import json, sys
path = sys.argv[1]
doc = json.load(open(path))
scenario = next(iter(doc["workloads"].values()))
scenario["expected_outcome"] = "evil\u001b]0;owned\u0007\u001b[2J\u009b31m\r"
json.dump(doc, open(path, "w"), indent=2)
PY
NO_COLOR=1 "$bin" --config "$tmp/esc" workloads >"$tmp/out" 2>&1
check "workloads prints (NO_COLOR)" grep -q 'evil' "$tmp/out"
check "  no ESC, BEL, CR or C1 byte reaches the output" python3 -c "
import sys; data = open('$tmp/out', 'rb').read()
sys.exit(any(b in data for b in (b'\x1b', b'\x07', b'\r', b'\xc2\x9b')))"
"$bin" --config "$tmp/esc" --format markdown workloads >"$tmp/out" 2>&1
check "  markdown output too" python3 -c "import sys; sys.exit(b'\x1b' in open('$tmp/out', 'rb').read())"
check "  the escape is shown as text" grep -qF 'evil\x1b]0;owned\x07\x1b[2J\u009b31m\x0d' "$tmp/out"
"$bin" --config "$tmp/esc" --format csv workloads >"$tmp/out" 2>&1
check "  csv output too" python3 -c "import sys; sys.exit(b'\x1b' in open('$tmp/out', 'rb').read())"

# Numbers inside option values follow the numeric option rule.
for spec in "a=0x10" "a=5abc" "a=nan" "a=NaN" "a=inf" "a=-1" "a=" "a:0x10" "a:1e999" "a: 7"; do
  check "placement --model $spec exits 2" test "$(exit_code "$bin" placement --model "$spec")" = 2
done
"$bin" placement --model a=nan >/dev/null 2>"$tmp/err"
check "  NaN is named as NaN" grep -q 'expected NAME=GB or NAME:PARAMS_B, got "a=nan": NaN is not a number' "$tmp/err"
"$bin" placement --model a=0x10 >/dev/null 2>"$tmp/err"
check "  hex is named" grep -q "hexadecimal is not read" "$tmp/err"
"$bin" placement --model a=5abc >/dev/null 2>"$tmp/err"
check "  trailing text is named" grep -q 'trailing text "abc" after the number' "$tmp/err"
check "placement --model a=16 --model b:7 is read" \
  test "$(exit_code "$bin" --json placement --model a=16 --model b:7 --instance p5.48xlarge)" = 0
check "  as 16 GB" python3 -c "
import json; d = json.load(open('$tmp/out'))
loads = {m['name']: m['memory_gb'] for m in d['result']['models']}
assert loads['a'] == 16, loads"
check "regions --user us-east-1=0x1 exits 2" \
  test "$(exit_code "$bin" regions --model llama-3.1-8b --user us-east-1=0x1)" = 2
check "regions --user us-east-1=1e-1 is read" \
  test "$(exit_code "$bin" regions --model llama-3.1-8b --user us-east-1=1e-1 --user eu-west-1=0.9)" = 0

# A question that prices where it is asked reads only those regions' price files (and each
# provider's usual region's): a broken file of another region is never read by it.
cp -r "$root/config" "$tmp/far"
echo '{"broken' >"$tmp/far/prices/aws/eu-west-1.json"
check "cost --instance g5.xlarge does not read another region's price file" \
  test "$(exit_code "$bin" --config "$tmp/far" cost --instance g5.xlarge)" = 0
check "fit --region eu-west-1 reads it, and says it is broken" \
  test "$(exit_code "$bin" --config "$tmp/far" fit --model llama-3.1-8b --instance g5.xlarge --region eu-west-1)" = 3
check "  naming the file" grep -q "prices/aws/eu-west-1.json" "$tmp/err" "$tmp/out"
check "catalog check reads every region's file" test "$(exit_code "$bin" --config "$tmp/far" catalog check)" = 3
# cost prices one instance at its own provider: another provider's usual region is not read either.
cp -r "$root/config" "$tmp/other"
echo '{"broken' >"$tmp/other/prices/gcp/us-central1.json"
check "cost --instance g5.xlarge reads AWS's prices only" \
  test "$(exit_code "$bin" --config "$tmp/other" cost --instance G5.XLARGE)" = 0
check "cost --instance of a GCP type reads the broken file, and says so" \
  test "$(exit_code "$bin" --config "$tmp/other" cost --instance g2-standard-4)" = 3
check "fit reads every provider's usual region (its ways out span providers)" \
  test "$(exit_code "$bin" --config "$tmp/other" fit --model llama-3.1-8b --instance g5.xlarge)" = 3

echo "$failures failure(s)"
exit $((failures > 0))
