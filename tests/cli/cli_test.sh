#!/usr/bin/env bash
# End-to-end checks of the native CLI: output, JSON, exit codes (0 ok, 2 usage, 3 invalid input).
set -uo pipefail
source "$(dirname "$0")/check.sh"

check "--help exits 0" test "$(exit_code "$bin" --help)" = 0
check "--version" grep -q "gpufleet" <("$bin" --version)
check "unknown command exits 2" test "$(exit_code "$bin" frobnicate)" = 2
check "fit without --instance exits 2" test "$(exit_code "$bin" fit --size small)" = 2
check "precisions without a model exits 2" test "$(exit_code "$bin" precisions)" = 2

"$bin" precisions --size medium >"$tmp/out"
for row in "FP32 .* 140 GB" "FP16 .* 70 GB" "BF16 .* 70 GB" "FP8 .* 35 GB" "INT8 .* 35 GB"; do
  check "precisions --size medium: $row" grep -Eq "^$row" "$tmp/out"
done

check "workload inference_small_p5 --json exits 0" test "$(exit_code "$bin" --json workload inference_small_p5)" = 0
check "  it recommends G6 or G6e" test "$(json_query "d['result']['report']['recommendation']['family'] in ('G6','G6e')")" = True
check "  savings are computed against the resolved p5.4xlarge" \
  test "$(json_query "d['result']['report']['current']['instance']")" = p5.4xlarge

check "workload-set comprehensive_suite --json" test "$(exit_code "$bin" --json workload-set comprehensive_suite)" = 0
check "  one report per scenario" test "$(json_query "len(d['result']['reports'])")" = 4

check "no command runs basic_demos" test "$(exit_code "$bin")" = 0
check "  both demo scenarios printed" test "$(grep -c '^=== ' "$tmp/out")" = 2

echo '{"question": "fit", "model": {"params_b": 70}, "workload": "inference", "precision": "fp8", "instance": "P5", "gpus": 1}' >"$tmp/req.json"
check "analyze FILE" test "$(exit_code "$bin" analyze "$tmp/req.json")" = 0
check "analyze - (stdin)" test "$("$bin" analyze - <"$tmp/req.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["status"])')" = FITS
echo '{"question": "fit"' >"$tmp/bad.json"
check "analyze of broken JSON exits 3" test "$(exit_code "$bin" analyze "$tmp/bad.json")" = 3
check "  and answers JSON" test "$(json_query "d['errors'][0]['code']")" = invalid_json

check "fit with an unknown instance exits 3" test "$(exit_code "$bin" fit --size small --instance Z1)" = 3
check "  and names the request path" grep -q "request at /instance" "$tmp/err"

# A catalog whose spot price is "abc".
mkdir -p "$tmp/cfg"
cp "$root"/config/*.json "$tmp/cfg/"
python3 - "$tmp/cfg/gpu_instances.json" <<'PY'
import json, sys
path = sys.argv[1]
doc = json.load(open(path))
doc["gpu_instances"]["P5"]["spot_cost_per_hour"] = "abc"
json.dump(doc, open(path, "w"), indent=2)
PY
check "catalog check on a bad catalog exits 3" test "$(exit_code "$bin" --config "$tmp/cfg" catalog check)" = 3
check "  naming the file and JSON path" grep -q "gpu_instances.json at /gpu_instances/P5/spot_cost_per_hour" "$tmp/err"
check "  and the expectation" grep -q 'expected a number >= 1e-06 and <= 10000, got string "abc"' "$tmp/err"
check "catalog check --json on a bad catalog" test "$(exit_code "$bin" --json --config "$tmp/cfg" catalog check)" = 3
check "  path in JSON" test "$(json_query "d['errors'][0]['path']")" = /gpu_instances/P5/spot_cost_per_hour

rm "$tmp/cfg/workloads.json"
check "a missing catalog file exits 3" test "$(exit_code "$bin" --config "$tmp/cfg" catalog check)" = 3
check "  naming the file" grep -q "missing_file.*workloads.json" "$tmp/err"

check "catalog check on the shipped catalog" test "$(exit_code "$bin" catalog check)" = 0
check "catalog show instances lists p5.48xlarge" grep -q "p5.48xlarge" <("$bin" catalog show instances)
check "recommend table" grep -q "g6e.xlarge" <("$bin" recommend --params-b 13 --workload inference --precision fp16)
check "migrate table" grep -q "Recommendation: move to" <("$bin" migrate --current P5 --gpus 1 --size small --workload inference)
check "cost table" grep -q "55.04" <("$bin" cost --instance P5 --gpus 8)
check "performance table" grep -q "3.17x" <("$bin" performance --workload training --precision bf16 --instance P4d --instance P5 --gpus 8)

check "placement table" grep -q "Cheapest single instance" <("$bin" placement --model whisper=10 --model tts=2 --model custom:7 --instance g5.12xlarge)
check "placement on Inferentia says models must be compiled for Neuron" grep -q "compiled for Neuron" <("$bin" placement --model whisper=10 --model tts=2 --instance inf2.xlarge)
check "placement with a bad --model exits 2" test "$(exit_code "$bin" placement --model whisper)" = 2
check "cost of a type whose usual region's price is flagged: priced from its provider's cheapest trustworthy region" \
  python3 - "$bin" "$root/config/prices/gcp" <<'PY'
import glob, json, subprocess, sys
cost = json.loads(subprocess.run([sys.argv[1], "--json", "cost", "--instance", "a3-highgpu-8g"], capture_output=True, text=True).stdout)["result"]["cost"]
assert cost["price_flags"] and cost["pricing"] == "on_demand", cost
offers = [(json.load(open(f))["offers"].get("a3-highgpu-8g"), f) for f in glob.glob(sys.argv[2] + "/*.json")]
trusted = [(o["on_demand_cost_per_hour"], f) for o, f in offers if o and not o.get("anomalies") and "on_demand_cost_per_hour" in o]
price, region = min(trusted)
assert abs(cost["usd_per_hour"] - price) < 1e-4 and cost["priced_from_region"] + ".json" == region.split("/")[-1], (cost, price, region)
PY
check "cost with a schedule" grep -q "8 h/day x 22 days = 176 h/month" <("$bin" cost --instance g4dn.xlarge --hours-per-day 8 --days 22)
mkdir -p "$tmp/seed001"
cp "$root/tests/data/seed001_catalog/gpu_instances.json" "$root/config/model_config.json" "$tmp/seed001/"
echo '{"workloads": {}}' >"$tmp/seed001/workloads.json"
check "plan FILE (seed 001 prices)" test "$(exit_code "$bin" --json --config "$tmp/seed001" plan "$root/tests/cases/plans/seed001.json")" = 0
check "  total of the four environments" test "$(json_query "d['result']['total_usd_per_month']")" = 5224.67
check "plan table" grep -q "Cheapest provider mix" <("$bin" --config "$tmp/seed001" plan "$root/tests/cases/plans/seed001.json")
echo '{"environments": []}' >"$tmp/plan.json"
check "a bad plan exits 3" test "$(exit_code "$bin" plan "$tmp/plan.json")" = 3

check "decide table" grep -q "Budget Conscious + PyTorch" <("$bin" decide --params-b 13 --workload training --precision bf16 --goal cost)

"$bin" --format csv recommend --params-b 13 --workload inference >"$tmp/out"
check "--format csv parses back with a header and numeric monthly costs" python3 - "$tmp/out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0][0] == "instance" and "usd_per_month" in rows[0], rows[0]
col = rows[0].index("usd_per_month")
assert len(rows) > 3
for r in rows[1:]:
    assert len(r) == len(rows[0]), r
    if r[col]:  # an option without a public price has an empty cell
        float(r[col])
PY
check "--format markdown prints pipe tables" grep -q "^| FP16 | 2 | 70 GB |" <("$bin" --format markdown precisions --size medium)
check "--format json equals --json" test "$("$bin" --format json precisions --size small | md5sum)" = "$("$bin" --json precisions --size small | md5sum)"
check "no colour when not a terminal" test "$(grep -c $'\x1b' <("$bin" fit --size small --instance G6e))" = 0
check "--format rejects unknown values" test "$(exit_code "$bin" --format yaml precisions --size small)" = 2

# A concrete model (the "memory" question) and the accuracy harness.
"$bin" fit --model llama-3-8b --precision bf16 --context 8192 --batch 1 --gpu A100-40GB >"$tmp/out"
check "fit --model llama-3-8b: weights 14.96 GiB" grep -Eq "^Weights +14\.96 GiB" "$tmp/out"
check "  KV cache 128.0 KiB per token" grep -q "KV cache 128.0 KiB per token" "$tmp/out"
check "  fits an A100-40GB" grep -q "^A100-40GB: FITS" "$tmp/out"
check "fit --model nosuch exits 3" test "$(exit_code "$bin" fit --model nosuch --gpu A100-40GB)" = 3
check "  and names the request path" grep -q "request at /model/name" "$tmp/err"
python3 -c "import json; print(json.dumps(json.load(open('$root/config/model_config.json'))['models']['llama-3-8b']['config']))" >"$tmp/config.json"
check "fit --hf-config FILE answers like --model" \
  test "$("$bin" --json fit --hf-config "$tmp/config.json" --precision bf16 --context 8192 --gpu A100-40GB | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["per_gpu"])')" \
     = "$("$bin" --json fit --model llama-3-8b --precision bf16 --context 8192 --gpu A100-40GB | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["per_gpu"])')"
echo '{"model_type": "llama", "hidden_size": 4096' >"$tmp/broken_config.json"
check "fit --hf-config with broken JSON exits 3" test "$(exit_code "$bin" fit --hf-config "$tmp/broken_config.json")" = 3
summary='^memory: n=[0-9]+ median_abs_err_pct=[0-9.]+ p90_abs_err_pct=[0-9.]+ max_abs_err_pct=[0-9.]+ skipped=[0-9]+$'
"$bin" accuracy "$root/tests/data/cases/memory_cases_dev.json" "$root/tests/data/cases/throughput_cases_dev.json" >"$tmp/out"
python3 -c "import json; [print(c['id']) for f in ('memory_cases_dev.json', 'throughput_cases_dev.json') for c in json.load(open('$root/tests/data/cases/' + f))]" >"$tmp/ids"
check "accuracy prints one row per case" test "$(awk 'NR == FNR { id[$1] = 1; next } ($1 in id) { n++ } END { print n }' "$tmp/ids" "$tmp/out")" = \
  "$(wc -l <"$tmp/ids" | tr -d ' ')"
check "  then the memory summary line" grep -Eq "$summary" <(tail -n 2 "$tmp/out" | head -n 1)
check "  and the throughput summary line last" grep -Eq "^throughput: n=[0-9]+ median_abs_err_pct=[0-9.]+ p90_abs_err_pct=[0-9.]+ max_abs_err_pct=[0-9.]+ skipped=[0-9]+$" <(tail -n 1 "$tmp/out")
check "  memory: n=168 skipped=0" grep -Eq "^memory: n=168 .* skipped=0$" "$tmp/out"
check "accuracy of a missing file exits 3" test "$(exit_code "$bin" accuracy "$tmp/nosuch.json")" = 3
check "scripts/accuracy.sh ends with the summary lines" grep -Eq "$summary" <(GPUFLEET_BIN="$bin" "$root/scripts/accuracy.sh" "$root/tests/data/cases/memory_cases_dev.json" | tail -n 2)

# Every numeric option is a finite decimal number >= 0, checked by the option parser (exit 2).
for bad in "--budget -1" "--hours nan" "--spot-share -0.5" "--input 0x10" "--requests-per-s 1e400" "--limit inf"; do
  # shellcheck disable=SC2086
  check "recommend $bad is a usage error" test "$(exit_code "$bin" recommend --params-b 7 $bad)" = 2
  check "  that names the option" grep -Eq -- "${bad%% *}: expected a (finite decimal|whole) number >?=? 0" "$tmp/err"
done
check "concurrency nan is a usage error" test "$(exit_code "$bin" estimate --model llama-3.1-8b --gpu H100 --concurrency nan)" = 2
check "--hours 2.5e2 is a number" test "$(exit_code "$bin" recommend --params-b 7 --hours 2.5e2 --limit 1)" = 0

# Files are read within the analyzer's limits; only regular files (or standard input) are read.
check "analyze of a directory exits 3" test "$(exit_code "$bin" analyze "$tmp")" = 3
check "  saying it is a directory" grep -q "is a directory" "$tmp/err"
mkfifo "$tmp/fifo"
check "analyze of a FIFO exits 3 at once" test "$(exit_code timeout 10 "$bin" analyze "$tmp/fifo")" = 3
check "  saying it is not a regular file" grep -q "not a regular file" "$tmp/err"
check "analyze of /dev/zero exits 3" test "$(exit_code timeout 10 "$bin" analyze /dev/zero)" = 3
head -c 3000000 /dev/zero | tr '\0' ' ' >"$tmp/big.json"
check "analyze of a 3 MB file exits 3" test "$(exit_code "$bin" analyze "$tmp/big.json")" = 3
check "  naming the limit" grep -q "larger than the limit of 1048576 bytes" "$tmp/err"
check "analyze - of 3 MB on standard input exits 3" test "$("$bin" analyze - <"$tmp/big.json" >/dev/null 2>&1; echo $?)" = 3
# --hf-config is one JSON value placed into the request, never spliced into its text.
python3 -c "import json; print(json.dumps(json.load(open('$root/config/model_config.json'))['models']['llama-3-8b']['config']) + ', \"gpu\": \"B200\"')" >"$tmp/inject.json"
check "--hf-config with a second member after the object exits 3" \
  test "$(exit_code "$bin" fit --hf-config "$tmp/inject.json" --precision bf16 --gpu A100-40GB)" = 3
check "  saying it is not one JSON value" grep -q "is not one JSON value" "$tmp/err"
printf '{"model_type": "llama", "model_type": "mistral"}' >"$tmp/dup.json"
check "--hf-config with a key given twice exits 3" test "$(exit_code "$bin" fit --hf-config "$tmp/dup.json" --gpu A100-40GB)" = 3
check "  naming the key" grep -q 'the key "model_type" appears twice' "$tmp/err"
python3 -c "print('[' * 100000 + ']' * 100000)" >"$tmp/deep.json"
check "--hf-config nested 100000 deep exits 3" test "$(exit_code "$bin" fit --hf-config "$tmp/deep.json" --gpu A100-40GB)" = 3

# Catalog text that a spreadsheet would run as a formula reaches CSV neutralised (OWASP).
cp -r "$root/config" "$tmp/formula_config"
python3 - "$tmp/formula_config/gpu_instances.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["gpu_instances"]["G4dn"]["gpu_type"] = "=HYPERLINK(\"http://example.invalid\",\"T4\")"
json.dump(doc, open(sys.argv[1], "w"))
PY
"$bin" --config "$tmp/formula_config" --format csv recommend --params-b 1 --workload inference --family G4dn >"$tmp/out"
check "--format csv neutralises a formula-like catalog string" python3 - "$tmp/out" <<'PY'
import csv, sys
cells = [c for row in csv.reader(open(sys.argv[1], newline="")) for c in row]
assert any(c.startswith("'=HYPERLINK(") for c in cells), cells
assert not any(c.startswith(("=", "@")) for c in cells), cells
assert "'-" not in cells and "-" not in cells, cells  # a value that is absent is an empty cell
PY

# Global options are accepted before or after the command, at any depth.
same() {  # same NAME ARGS-BEFORE -- ARGS-AFTER: both lines print the same and exit alike
  local name="$1" before=() after=()
  shift
  while [ "$1" != "--" ]; do before+=("$1"); shift; done
  shift
  after=("$@")
  "$bin" "${before[@]}" >"$tmp/before" 2>&1; local rb=$?
  "$bin" "${after[@]}" >"$tmp/after" 2>&1; local ra=$?
  check "$name" test "$rb/$(md5sum <"$tmp/before")" = "$ra/$(md5sum <"$tmp/after")"
}
same "--json after the command" --json recommend --params-b 13 --limit 2 -- recommend --params-b 13 --limit 2 --json
check "  gpufleet recommend --json ... answers JSON" test "$(python3 -c "import json; print(json.load(open('$tmp/after'))['ok'])")" = True
same "--format csv after the command" --format csv cost --instance P5 -- cost --instance P5 --format csv
same "--format json after the command" --format json precisions --size small -- precisions --format json --size small
same "--no-color after the command" --no-color fit --size small --instance G6e -- fit --size small --instance G6e --no-color
same "--config after the command" --config "$tmp/seed001" plan "$root/tests/cases/plans/seed001.json" -- plan "$root/tests/cases/plans/seed001.json" --config "$tmp/seed001"
check "  and it is used" grep -q "Cheapest provider mix" "$tmp/after"
same "--json after a nested command" --json catalog check -- catalog check --json
same "--config after a nested command" --config "$tmp/cfg" catalog check -- catalog check --config "$tmp/cfg"
check "--format after the command is checked too" test "$(exit_code "$bin" precisions --size small --format yaml)" = 2
check "a command's --help lists the global options" grep -q -- "--no-color" <("$bin" estimate --help)

# Completion scripts and the man page are generated from the options, by the build and on request.
gen="$(dirname "$bin")"
"$bin" completion bash >"$tmp/gpufleet.bash"
"$bin" completion zsh >"$tmp/_gpufleet"
"$bin" man >"$tmp/gpufleet.1"
check "the build generated the bash completion" cmp -s "$gen/completion/gpufleet" "$tmp/gpufleet.bash"
check "the build generated the zsh completion" cmp -s "$gen/completion/_gpufleet" "$tmp/_gpufleet"
check "the build generated the man page" cmp -s "$gen/man/gpufleet.1" "$tmp/gpufleet.1"
check "bash -n accepts the bash completion" bash -n "$tmp/gpufleet.bash"
if command -v zsh >/dev/null 2>&1; then
  check "zsh -n accepts the zsh completion" zsh -n "$tmp/_gpufleet"
else
  echo "skip zsh -n (no zsh here)"
fi
if command -v groff >/dev/null 2>&1; then
  check "groff renders the man page without warnings" test -z "$(groff -man -Tutf8 -ww -z "$tmp/gpufleet.1" 2>&1)"
fi
check "the man page has its title" grep -q '^\.TH GPUFLEET 1' "$tmp/gpufleet.1"
check "no path of the build machine in the man page" test "$(grep -c "$root" "$tmp/gpufleet.1")" = 0
# Every command of --help (and the commands under it) with every option its --help lists.
commands() { "$bin" "$@" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'; }
options() { "$bin" "$@" --help | grep -E '^  -' | awk '{ print $1 }' | tr ',' '\n' | grep -E '^--' | sed 's/=.*//'; }
missing=""
for cmd in $(commands); do
  paths=("$cmd")
  for sub in $(commands "$cmd"); do paths+=("$cmd $sub"); done
  for path in "${paths[@]}"; do
    # shellcheck disable=SC2086
    opts="$(options $path)"
    bash_line="$(grep -F "    \"$path\") echo \"--help" "$tmp/gpufleet.bash" | sed 's/.*echo "\(.*\)" ;;$/\1/')"
    parent=""
    [[ "$path" == *" "* ]] && parent="${path% *}"
    zsh_fn="_gpufleet_$(echo "$path" | tr ' -' '__')"
    zsh_body="$(sed -n "/^$zsh_fn() {/,/^}/p" "$tmp/_gpufleet")"
    man_body="$(sed -n "/^\.SS \"gpufleet $(echo "$path" | sed 's/-/\\\\-/g')\"/,/^\.SS/p" "$tmp/gpufleet.1")"
    grep -Eq "^    \"$parent\"\) echo \"(.* )?${path##* }( .*)?\" ;;" "$tmp/gpufleet.bash" || missing+=" bash:$path"
    [ -n "$zsh_body" ] || missing+=" zsh:$path"
    [ -n "$man_body" ] || missing+=" man:$path"
    for opt in $opts; do
      [[ " $bash_line " == *" $opt "* ]] || missing+=" bash:$path:$opt"
      grep -qF -- "$opt" <<<"$zsh_body" || missing+=" zsh:$path:$opt"
      case "$opt" in --help|--config|--json|--format|--no-color) continue ;; esac
      grep -qF -- "\\fB$(echo "$opt" | sed 's/-/\\-/g')\\fR" <<<"$man_body" || missing+=" man:$path:$opt"
    done
  done
done
check "completion scripts and man page name every command and option of --help" test -z "$missing"
[ -n "$missing" ] && echo "  missing:$missing"
for global in --config --json --format --no-color; do
  check "the man page's global options list $global" grep -qF -- "\\fB$(echo "$global" | sed 's/-/\\-/g')\\fR" <(sed -n '/^\.SH GLOBAL OPTIONS/,/^\.SH COMMANDS/p' "$tmp/gpufleet.1")
done
complete_words() {  # complete_words WORD...: what the bash completion offers for the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gpufleet; echo "${COMPREPLY[*]}"' _ "$tmp/gpufleet.bash" gpufleet "$@"
}
check "bash completes a command" test "$(complete_words rec)" = recommend
check "bash completes an option after a global option" test "$(complete_words --json recommend --prio)" = --priority
check "bash completes allowed values" test "$(complete_words recommend --format c)" = csv
check "bash completes a nested command's argument" test "$(complete_words catalog show ins)" = instances

# Help speaks of the product, not of the seeds it was built from.
check "no seed in any --help" test -z "$(for c in "" $(commands); do "$bin" $c --help; done | grep -i 'seed [0-9]')"

# Tables fit the terminal: COLUMNS, else the terminal, else 100 columns.
widest() { awk '{ n = length($0); if (n > m) m = n } END { print m + 0 }' "$@"; }
COLUMNS=80 "$bin" recommend --params-b 13 --workload inference >"$tmp/out"
check "COLUMNS=80: recommend's candidates fit 80 columns" test "$(widest "$tmp/out")" -le 80
check "  moved columns go to a detail line under each row" grep -Eq '^    region: us-east-1; accelerator: ' "$tmp/out"
check "  every candidate is still listed" test "$(grep -c '^g6e.xlarge ' "$tmp/out")" = 1
COLUMNS=80 "$bin" catalog check | grep -v '^catalogs: ' >"$tmp/out"  # a path is as long as the checkout's
check "COLUMNS=80: catalog check's warnings fit 80 columns" test "$(widest "$tmp/out")" -le 80
COLUMNS=80 "$bin" estimate --model llama-3.1-8b --rank >"$tmp/out"
check "COLUMNS=80: estimate --rank fits 80 columns" test "$(widest "$tmp/out")" -le 80
COLUMNS=80 "$bin" estimate --model llama-3.1-8b --gpu H100 >"$tmp/out"
check "COLUMNS=80: estimate's explanations wrap within 80 columns" test "$(widest "$tmp/out")" -le 80
for args in "plan $root/tests/cases/plans/seed001.json" "right-size --model whisper-small --model llama-2-13b" "catalog show" \
            "migrate --current P5 --gpus 1 --size small --workload inference" "cost --instance g5.xlarge --regions us-east-1,us-west-2"; do
  # shellcheck disable=SC2086
  COLUMNS=80 "$bin" $args >"$tmp/out"
  check "COLUMNS=80: ${args%% *} fits 80 columns" test "$(widest "$tmp/out")" -le 80
done
check "  a table's wrapped cells stay in their column" grep -Eq '^ {40,}[a-z(]' <(COLUMNS=80 "$bin" plan "$root/tests/cases/plans/seed001.json")
"$bin" migrate --current P5 --gpus 1 --size small --workload inference >"$tmp/out"
check "not a terminal: 100 columns" test "$(widest "$tmp/out")" -le 100
COLUMNS=200 "$bin" recommend --params-b 13 --workload inference >"$tmp/out"
check "COLUMNS=200: the whole candidate table on one line per row" grep -Eq '^instance +region +accelerator +gpus layout .* risk$' "$tmp/out"
check "--format markdown is not cut to the width" grep -q '| instance | region | accelerator |' <(COLUMNS=40 "$bin" recommend --params-b 13 --format markdown)

# CSV: raw values at full precision, one value per cell, units in the header.
"$bin" --format csv cost --instance g5.xlarge >"$tmp/out"
check "--format csv: prices at full precision" python3 - "$tmp/out" "$bin" <<'PY'
import csv, json, subprocess, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
answer = json.loads(subprocess.run([sys.argv[2], "--json", "cost", "--instance", "g5.xlarge"], capture_output=True, text=True).stdout)
header = rows[0]
assert "usd_per_hour" in header and "usd_per_month" in header, header
chosen = rows[1]
assert float(chosen[header.index("usd_per_hour")]) == answer["result"]["cost"]["usd_per_hour"], chosen
spot = [r for r in rows[1:] if r[0] == "spot"][0]
assert float(spot[header.index("usd_per_hour")]) == answer["result"]["cost"]["spot_usd_per_hour"], spot
assert len(spot[header.index("usd_per_hour")].split(".")[1]) > 2, spot  # not rounded to cents
PY
"$bin" --format csv recommend --params-b 13 --workload inference >"$tmp/out"
check "--format csv: one value per cell, units in the header" python3 - "$tmp/out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
header = rows[0]
for name in ("memory_per_gpu_gb", "capacity_per_gpu_gb", "usd_per_month", "tokens_per_s", "p95_ttft_ms"):
    assert name in header, (name, header)
for r in rows[1:]:
    for name in ("memory_per_gpu_gb", "capacity_per_gpu_gb", "usd_per_month", "gpus", "tensor_parallel"):
        value = r[header.index(name)]
        if value:
            float(value)  # a plain number: no unit, no "a/b"
    assert not any(c.endswith((" GB", " GiB", " ms", "%", " tok/s")) for c in r), r
PY
"$bin" --format csv migrate --current g6e.xlarge --gpus 1 --size small --workload inference --priority performance >"$tmp/out"
check "--format csv: a negative number stays a number" python3 - "$tmp/out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
col = rows[0].index("savings_pct")
assert rows[0][0] == "role" and rows[1][0] == "current", rows[:2]
negative = [r[col] for r in rows[1:] if r[col].startswith("-")]
assert negative and all(float(v) < 0 for v in negative), negative
PY
check "--format csv: estimate's figures with their unit in a column" grep -q '^Time to first token,[0-9.]*,ms,' <("$bin" estimate --model llama-3.1-8b --gpu H100 --format csv)

# Every command that prices takes the billing options its question accepts.
check "right-size --hours" grep -q "x 730 h" <("$bin" right-size --model llama-2-13b --hours 730 --json)
check "right-size --region" test "$(exit_code "$bin" right-size --model llama-2-13b --region us-west-2)" = 0
"$bin" estimate --model llama-3.1-70b --instance Standard_NC96ads_A100_v4 --tp 4 --concurrency 1 >"$tmp/out"
check "estimate --tp 4 on PCIe A100s: the link line says PCIe at 32 GB/s" grep -Eq "Link: .*no NVLink domain.*PCIe at 32 GB/s" <(tr '\n' ' ' <"$tmp/out" | tr -s ' ')
"$bin" estimate --model llama-3.1-70b --instance p4de.24xlarge --tp 4 --concurrency 1 >"$tmp/out"
check "estimate --tp 4 on p4de: the link line says inside the 8-GPU domain at 300 GB/s" grep -Eq "Link: .*inside one 8-GPU domain.*300 GB/s" <(tr '\n' ' ' <"$tmp/out" | tr -s ' ')
check "estimate --tp 1 prints no link line" test "$("$bin" estimate --model llama-3.1-8b --instance p4de.24xlarge | grep -c '^Link:')" = 0
check "estimate --region" test "$(exit_code "$bin" estimate --model llama-3.1-8b --gpu H100 --region us-west-2)" = 0
# transformers' generate on an H100: SDPA (its default) builds cuDNN attention's graph each step;
# --attention eager launches more kernels but builds none.
"$bin" --json estimate --model llama-3.1-8b --gpu H100 --engine transformers --concurrency 1 >"$tmp/out"
sdpa_ms="$(json_query "d['result']['inference']['decode_step_ms']")"
check "estimate --engine transformers: the step pays cuDNN attention's graph" grep -q "cuDNN attention's graph" "$tmp/out"
"$bin" --json estimate --model llama-3.1-8b --gpu H100 --engine transformers --attention eager --concurrency 1 >"$tmp/out"
check "  --attention eager: no graph, a shorter step" python3 -c "import json,sys; d=json.load(open('$tmp/out')); s=d['result']['inference']; sys.exit(not ('cuDNN' not in json.dumps(s) and s['decode_step_ms'] < $sdpa_ms - 30))"
check "estimate --attention flash is an invalid request (exit 3)" test "$(exit_code "$bin" estimate --model llama-3.1-8b --gpu H100 --attention flash)" = 3
check "  naming what is expected" grep -q "expected sdpa, eager or flash_attention_2" "$tmp/err"
check "performance --hours" test "$(exit_code "$bin" performance --model llama-3.1-8b --instance g6e.xlarge --instance p5.4xlarge --hours 100)" = 0
check "plan --region" test "$(exit_code "$bin" plan "$root/tests/cases/plans/seed001.json" --region us-west-2)" = 0
# A command that cannot honour an option says so (exit 2), naming it.
refused() {  # refused NAME OPTION ARGS...: a usage error that names OPTION
  local name="$1" option="$2"
  shift 2
  check "$name is a usage error" test "$(exit_code "$bin" "$@")" = 2
  check "  naming $option" grep -q -- "$option" "$tmp/err"
}
refused "estimate --phase training --rank" --rank estimate --model llama-3.1-8b --phase training --rank
refused "estimate --phase training --input" --input estimate --model llama-3.1-8b --gpu H100 --phase training --input 100
refused "estimate --tokens without --phase training" --tokens estimate --model llama-3.1-8b --gpu H100 --tokens 1e9
refused "estimate --max-ttft-ms without --rank" --max-ttft-ms estimate --model llama-3.1-8b --gpu H100 --max-ttft-ms 100
refused "estimate --rank --gpu" --gpu estimate --model llama-3.1-8b --rank --gpu H100
refused "fit without --instance --spot" --spot fit --model llama-3-8b --gpu H100 --spot
refused "fit without --instance --requests-per-s" --requests-per-s fit --model llama-3-8b --gpu H100 --requests-per-s 5
refused "fit --instance --context" --context fit --size small --instance G6e --context 4096
refused "performance without a model --input" --input performance --instance P5 --instance P4d --input 100
refused "right-size --spot (prices on demand)" --spot right-size --model llama-2-13b --spot
refused "cost --spot --pricing" --pricing cost --instance P5 --spot --pricing mixed

# The lists come from the core's field table (core/src/api/request_fields.cpp): every question of the
# request schema is named in --help, and an option's choices are the field's values in the schema.
"$bin" schema request >"$tmp/request.schema.json"
"$bin" --help >"$tmp/help"
for q in $(python3 -c "import json; print(' '.join(json.load(open('$tmp/request.schema.json'))['properties']['question']['enum']))"); do
  check "--help names the question $q" grep -qw -- "$q" "$tmp/help"
done
goals=$(python3 -c "
import json
s = json.load(open('$tmp/request.schema.json'))
for b in s['allOf']:
    if b['if']['properties']['question']['const'] == 'decide': print(','.join(next(a['enum'] for a in b['then']['properties']['goal']['anyOf'] if 'enum' in a)))")
check "decide --goal's choices are the schema's ($goals)" grep -q -- "--goal TEXT:{$goals}" <("$bin" decide --help)

# batch (docs/batch.md): one job from options, a list from a file, and the minimum deadline said.
check "batch one job --json exits 0" test "$(exit_code "$bin" --json batch --model llama-3.1-8b --workload lora --tokens 5e7 \
  --deadline-hours 48 --instance-type g6e.xlarge --regions us-east-1,us-west-2 --traces 100)" = 0
check "  three plans, the deadline-aware one on time" \
  test "$(json_query "[p['name'] for p in d['result']['jobs'][0]['plans']] == ['all_on_demand', 'all_spot', 'deadline_aware', 'uniform_progress'] and d['result']['jobs'][0]['plans'][2]['p_meet_deadline'] == 1 and d['result']['jobs'][0]['plans'][3]['p_meet_deadline'] == 1")" = True
echo '[{"name": "a", "model": {"name": "llama-3.1-8b"}, "workload": "lora", "demand": {"dataset_tokens": 5e7}, "deadline_hours": 40},
      {"name": "b", "model": {"name": "llama-3.1-8b"}, "workload": "lora", "demand": {"dataset_tokens": 2e7}, "deadline_hours": 10}]' >"$tmp/jobs.json"
check "batch --jobs FILE exits 0" test "$(exit_code "$bin" --json batch --jobs "$tmp/jobs.json" --instance-type g6e.xlarge --concurrent-jobs 1 --traces 100)" = 0
check "  earliest deadline first" test "$(json_query "','.join(x['job'] for x in d['result']['schedule'])")" = b,a
check "batch with a deadline under the work exits 3" test "$(exit_code "$bin" batch --model llama-3.1-8b --workload lora --tokens 5e7 --deadline-hours 0.5 --instance-type g6e.xlarge)" = 3
check "  naming the field and the minimum" grep -q "request at /deadline_hours.*at least" "$tmp/err"
check "autoscale on a type without a speed estimate is refused with exit 4" test "$(exit_code "$bin" autoscale --model llama-3.1-8b --shape flat --peak-requests-per-s 5 --instance g7e.4xlarge)" = 4
"$bin" autoscale --model llama-3.1-8b --shape flat --peak-requests-per-s 5 --instance g7e.4xlarge 2>"$tmp/err" >/dev/null || true
check "  naming the reason and a way out" grep -q "no speed estimate.*choose another instance type" "$tmp/err"
check "spot never sizes a demand on a type without a speed estimate" \
  bash -c '! "$0" --json spot --model llama-3.1-8b --requests-per-s 20 | grep -q "g7e"' "$bin"
check "batch without --deadline-hours is a usage error" test "$(exit_code "$bin" batch --model llama-3.1-8b --workload lora --tokens 5e7)" = 2

echo "cli: $failures failure(s)"
test "$failures" -eq 0
