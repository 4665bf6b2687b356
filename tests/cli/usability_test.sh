#!/usr/bin/env bash
# The CLI as people use it (issue 37): model names as typed, exit codes scripts branch on, examples
# in every --help and the man page, "did you mean", completion of catalog names, whole-number
# options, CSV columns named for their units with integer counts, the catalog's models and dates.
set -uo pipefail
source "$(dirname "$0")/check.sh"

# Model names as people type them.
for typed in "meta-llama/Llama-3.1-8B-Instruct" "Llama-3.1-8B-Instruct" "llama3.1 8b"; do
  check "fit --model '$typed' exits 0" test "$(exit_code "$bin" --json fit --model "$typed" --gpu L4)" = 0
  check "  resolves to llama-3.1-8b" test "$(json_query "d['result']['model']['key']")" = llama-3.1-8b
done
check "fit --model 'llama3 8b' is Llama 3 8B" test "$(exit_code "$bin" --json fit --model "llama3 8b" --gpu L4; json_query "d['result']['model']['key']")" = "0
llama-3-8b"
check "recommend --model Qwen2.5-7B-Instruct exits 0" \
  test "$(exit_code "$bin" recommend --model Qwen2.5-7B-Instruct --requests-per-s 2 --limit 3)" = 0
check "  and says which catalog model it is" grep -q 'Model "Qwen2.5-7B-Instruct" is the catalog.s qwen2.5-7b' "$tmp/out"
check "an unknown model exits 3" test "$(exit_code "$bin" fit --model llama-3.1-9b --gpu L4)" = 3
check "  with did you mean" grep -q "did you mean llama-3.1-8b (Meta Llama 3.1 8B)" "$tmp/err"
check "  and the config.json way out" grep -q "hf-config" "$tmp/err"
check "catalog show models lists the concrete models" test "$(exit_code "$bin" catalog show models)" = 0
for key in llama-3.1-8b mixtral-8x7b-v0.1 whisper-large-v3 qwen3-4b; do
  check "  $key" grep -q "^$key " "$tmp/out"
done

# Exit codes: 4 when the answer is CANNOT FIT / CANNOT RUN.
check "fit that fits exits 0" test "$(exit_code "$bin" fit --params-b 7 --instance p5.48xlarge)" = 0
check "fit that cannot fit exits 4" test "$(exit_code "$bin" fit --params-b 400 --instance g6.xlarge)" = 4
check "  the answer is printed" grep -q "CANNOT" "$tmp/out"
check "--json fit that cannot fit exits 4" test "$(exit_code "$bin" --json fit --params-b 400 --instance g6.xlarge)" = 4
check "  status CANNOT FIT MODEL" test "$(json_query "d['result']['status']")" = "CANNOT FIT MODEL"
echo '{"question": "fit", "model": {"params_b": 400}, "workload": "inference", "instance": "g6.xlarge"}' >"$tmp/cannot.json"
check "analyze of a request that cannot fit exits 4" test "$(exit_code "$bin" analyze "$tmp/cannot.json")" = 4
check "placement that does not hold its models exits 4" \
  test "$(exit_code "$bin" placement --model a=500 --instance g6.xlarge)" = 4
check "exit codes in --help" grep -q "4 answered CANNOT FIT" <("$bin" --help)

# An example in every command's --help, and in the man page.
# The top-level commands, as the completion script lists them.
paths=$("$bin" completion bash | sed -n '/^_gpufleet_commands()/,/^}/p' | grep '^    "") echo' | sed 's/.*echo "//; s/".*//')
check "the command list is read" test -n "$paths"
for c in $paths; do
  check "gpufleet $c --help has an example" grep -q "^  gpufleet \|^  echo \|^  man " <("$bin" $c --help)
done
for c in "catalog check" "catalog show"; do
  check "gpufleet $c --help has an example" grep -q "^  gpufleet $c" <("$bin" $c --help)
done
# The examples run against the shipped catalogs (those naming files of your own aside).
for c in $paths "catalog check" "catalog show"; do
  "$bin" $c --help 2>/dev/null | grep '^  gpufleet ' | grep -v 'my-\|\*\|>' | sed 's/^  gpufleet //' >"$tmp/examples"
  while read -r line; do
    check "example runs: gpufleet $line" test "$(eval "exit_code \"\$bin\" $line")" = 0
  done <"$tmp/examples"
done
"$bin" man >"$tmp/man"
check "the man page has an example per command" test "$(grep -c '^\\fIExamples\?:\\fR' "$tmp/man")" -ge 20
check "  and the exit code 4" grep -q "4 answered CANNOT FIT" "$tmp/man"

# Did you mean, for commands and options.
check "a mistyped command exits 2" test "$(exit_code "$bin" recomend --size small)" = 2
check "  did you mean recommend" grep -q 'did you mean recommend?' "$tmp/err"
check "a mistyped option exits 2" test "$(exit_code "$bin" recommend --size small --requests-per-sec 5)" = 2
check "  did you mean --requests-per-s" grep -q 'no option --requests-per-sec; did you mean --requests-per-s' "$tmp/err"
check "a mistyped nested command" test "$(exit_code "$bin" catalog shwo models)" = 2
check "  did you mean show" grep -q 'did you mean show?' "$tmp/err"

# ... and for the catalog's names (the core's errors, every door).
check "a mistyped instance exits 3" test "$(exit_code "$bin" cost --instance p5.48xlarg)" = 3
check "  did you mean p5.48xlarge" grep -q 'did you mean p5.48xlarge' "$tmp/err"
check "a mistyped GPU exits 3" test "$(exit_code "$bin" fit --model llama-3.1-8b --gpu A10O-80GB)" = 3
check "  did you mean A100-80GB" grep -q 'did you mean A100-80GB' "$tmp/err"
check "a mistyped region exits 3" test "$(exit_code "$bin" cost --instance g6.xlarge --region us-est-1)" = 3
check "  did you mean us-east-1" grep -q 'did you mean .*us-east-1' "$tmp/err"

# Completion offers the catalog's names.
"$bin" completion bash >"$tmp/completion.bash"
complete_words() {  # complete_words WORD... : what bash completes the last word to
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gpufleet; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$tmp/completion.bash" "$@"
}
check "bash completes --model llama-3.1-8 to llama-3.1-8b" grep -qx "llama-3.1-8b" <(complete_words gpufleet fit --model llama-3.1-8)
check "bash completes --instance p5.48 to p5.48xlarge" grep -qx "p5.48xlarge" <(complete_words gpufleet cost --instance p5.48)
check "bash completes --gpu H100-S to H100-SXM-80GB" grep -qx "H100-SXM-80GB" <(complete_words gpufleet estimate --model x --gpu H100-S)
check "bash completes --region us-east- to us-east-1" grep -qx "us-east-1" <(complete_words gpufleet recommend --region us-east-)
check "zsh completion names the models" grep -q "whisper-large-v3-turbo" <("$bin" completion zsh)

# Whole-number options refuse fractions.
check "--limit 2.5 exits 2" test "$(exit_code "$bin" recommend --size small --limit 2.5)" = 2
check "  saying a whole number is needed" grep -q "expected a whole number > 0, got \"2.5\"" "$tmp/err"

# A 0 given is never read as "not given": refused where the option has a default, taken where 0 means something.
check "fit --gpus 0 exits 2" test "$(exit_code "$bin" fit --model llama-3.1-8b --instance g6e.xlarge --gpus 0)" = 2
check "  saying 0 is not taken" grep -q -- "--gpus: expected a finite decimal number > 0, got \"0\": 0 is not taken here" "$tmp/err"
check "fit --gpu --new-tokens 0 asks for nothing generated" test "$("$bin" --json fit --model llama-3.1-8b --gpu L40S --new-tokens 0 |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["settings"]["new_tokens"])')" = 0.0
check "--limit 2 is read" test "$(exit_code "$bin" --json recommend --size small --limit 2)" = 0
check "  two rows" test "$(json_query "len(d['result']['candidates'])")" = 2
check "--tp 1.5 exits 2" test "$(exit_code "$bin" estimate --model llama-3.1-8b --gpu H100 --tp 1.5)" = 2

# CSV: column names match their units; counts are integers.
"$bin" --format csv recommend --size small --limit 5 >"$tmp/rec.csv"
check "CSV memory columns are GB, as their values" grep -q "memory_per_gpu_gb,capacity_per_gpu_gb" "$tmp/rec.csv"
check "  no _gib column holds GB values" test "$(head -1 "$tmp/rec.csv" | grep -c "_gib")" = 0
check "CSV counts are integers" python3 - "$tmp/rec.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert rows, "no rows"
for row in rows:
    for column in ("instance_count", "gpus", "tensor_parallel", "pipeline_parallel", "replicas"):
        assert row[column].isdigit(), (column, row[column])
PY
"$bin" --format csv catalog show instances >"$tmp/instances.csv"
check "catalog CSV gpus are integers" python3 - "$tmp/instances.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) > 50
assert all(r["gpus"].isdigit() for r in rows), [r["gpus"] for r in rows if not r["gpus"].isdigit()][:3]
assert all(r["source_date"] for r in rows)
PY

# catalog show instances says a date every row shares once, not under every row.
COLUMNS=80 "$bin" catalog show instances >"$tmp/out"
check "catalog show instances: 'undated' at most once" test "$(grep -c "undated" "$tmp/out")" -le 1
check "  more than 50 rows" test "$(grep -c "xlarge\|metal" "$tmp/out")" -gt 50

echo "$failures failure(s)"
exit $((failures > 0))
