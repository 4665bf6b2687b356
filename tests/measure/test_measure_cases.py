"""scripts/measure: imports without torch, plans its cases, and every case it writes validates
against CASES.md's schema (the script's checks and, when GPUFLEET_BIN names the CLI, the accuracy
harness, which predicts each one). The measured values here are test fixtures, not measurements."""

import contextlib
import copy
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from measure import cases, cli, plan, probe  # noqa: E402

# Fixture values standing in for what a run returns (bytes, tokens/s); not measurements.
FIXTURE = {"torch_max_allocated": 20 * 2**30, "decode_tokens_per_second": 40.0,
           "prefill_tokens_per_second": 9000.0, "training_tokens_per_second_per_gpu": 3000.0}
ENV = {"torch": "2.11.0+cu128", "transformers": "5.17.0", "peft": "0.18.0", "cuda": "12.8", "cudnn": "91000",
       "python": "3.12.3", "gpu_name": "NVIDIA H200", "gpu": "H200-SXM-141GB", "driver": "580.65.06",
       "cpu": "test fixture CPU", "date": "2026-11-29"}


def planned_cases():
    catalog = plan.models()
    return [cases.make_case(s, catalog[s.model], figure, FIXTURE[figure], ENV)
            for s in plan.default_plan() for figure in s.measures()]


class ImportSafe(unittest.TestCase):
    def test_plan_cases_and_cli_import_without_torch(self):
        self.assertNotIn("torch", sys.modules)
        self.assertNotIn("transformers", sys.modules)

    def test_dry_run_prints_every_planned_case_without_torch(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(cli.main(["--dry-run"]), 0)
        lines = out.getvalue().splitlines()
        setups = plan.default_plan()
        self.assertEqual(len(lines), sum(len(s.measures()) for s in setups))
        self.assertNotIn("torch", sys.modules)
        self.assertTrue(any("full_finetune\tbf16_adamw" in l.replace(" ", "\t") for l in lines))

    def test_the_small_plan_reads_its_models_from_the_dev_cases(self):
        catalog = plan.models()
        for key, case_id in plan.CASE_MODELS.items():
            self.assertGreater(catalog[key]["computed_parameters"], 0, case_id)
        self.assertEqual(catalog["qwen2-0.5b"]["config"]["hidden_size"], 896)
        setups = plan.small_plan()
        self.assertEqual({s.model for s in setups}, set(plan.CASE_MODELS))
        self.assertEqual([f for s in setups for f in plan.check(s, catalog)], [])

    def test_the_probe_uses_no_case_model_for_the_host_figure(self):
        for key in probe.HOST_MODELS:
            self.assertIn(key, plan.models())
            self.assertFalse(any(s.model == key for s in plan.default_plan() + plan.small_plan()), key)

    def test_only_selects_by_the_words_of_the_id(self):
        picked = plan.select(plan.default_plan(), ["lora", "nogc"])
        self.assertTrue(picked)
        self.assertTrue(all(s.mode == "lora" and not s.gradient_checkpointing for s in picked))


class Plan(unittest.TestCase):
    def test_the_issue_classes_are_planned(self):
        setups = plan.default_plan()
        have = {(s.mode, s.recipe, s.attention, s.gradient_checkpointing) for s in setups}
        for mode, recipe in (("full_finetune", "bf16_adamw"), ("full_finetune", "fp32")):
            for attention in ("eager", "sdpa"):
                for gc in (False, True):
                    self.assertIn((mode, recipe, attention, gc), have)
        self.assertIn(("lora", "bf16", "sdpa", False), have)
        self.assertIn(("lora", "bf16", "sdpa", True), have)
        self.assertTrue(any(s.mode == "inference" and s.batch == 1 for s in setups))
        self.assertTrue(any(s.recipe == "fp32_inference" and s.attention == "sdpa" for s in setups))

    def test_every_setup_runs_as_planned_and_ids_are_unique(self):
        catalog = plan.models()
        setups = plan.default_plan()
        self.assertEqual([f for s in setups for f in plan.check(s, catalog)], [])
        self.assertEqual(len({s.id for s in setups}), len(setups))

    def test_check_names_what_is_wrong(self):
        bad = plan.with_overrides(plan.default_plan()[0], model="no-such-model", attention="flash")
        faults = plan.check(bad, plan.models())
        self.assertTrue(any("no-such-model" in f for f in faults))
        self.assertTrue(any("attention 'flash'" in f for f in faults))


class Cases(unittest.TestCase):
    def test_every_planned_case_validates(self):
        written = planned_cases()
        for case in written:
            self.assertEqual(cases.validate_case(case), [], case["id"])
        self.assertEqual(len({c["id"] for c in written}), len(written))

    def test_combine_keeps_one_case_per_id_at_the_runs_median(self):
        setup = plan.select(plan.default_plan(), ["llama-3.1-8b", "eager", "b1x512"])[0]
        model = plan.models()[setup.model]
        runs = [[cases.make_case(setup, model, "decode_tokens_per_second", v, ENV)] for v in (30.0, 42.0, 40.0)]
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for i, run in enumerate(runs):
                paths.append(os.path.join(d, f"run{i}.json"))
                with open(paths[-1], "w", encoding="utf-8") as f:
                    json.dump(run, f)
            out = os.path.join(d, "cases.json")
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(cli.main(["--combine", *paths, "--out", out]), 0)
            with open(out, encoding="utf-8") as f:
                combined = json.load(f)
        self.assertEqual(len(combined), 1)
        self.assertEqual(combined[0]["measured"]["value"], 40.0)
        self.assertIn("Median of 3 runs", combined[0]["notes"])
        self.assertIn("30, 42, 40 tokens/s", combined[0]["notes"])

    def combine_refusal(self, a: dict, b: dict) -> str:
        """What --combine says when it refuses two runs, one case each."""
        with tempfile.TemporaryDirectory() as d:
            paths = [os.path.join(d, "a.json"), os.path.join(d, "b.json")]
            for path, case in zip(paths, (a, b)):
                with open(path, "w", encoding="utf-8") as f:
                    json.dump([case], f)
            with self.assertRaises(SystemExit) as raised:
                cli.main(["--combine", *paths, "--out", os.path.join(d, "out.json")])
        return str(raised.exception)

    def test_combine_refuses_runs_that_measure_different_figures(self):
        setup = plan.select(plan.default_plan(), ["llama-3.1-8b", "eager", "b1x512"])[0]
        model = plan.models()[setup.model]
        a = cases.make_case(setup, model, "decode_tokens_per_second", 30.0, ENV)
        b = copy.deepcopy(a)
        b["measured"]["metric"] = "output_tokens_per_second"
        self.assertIn("different figures", self.combine_refusal(a, b))

    def test_combine_refuses_runs_whose_attention_shapes_had_run_in_one_and_not_the_other(self):
        setup = plan.select(plan.default_plan(), ["llama-3.1-8b", "sdpa", "b1x512"])[0]
        model = plan.models()[setup.model]
        a = cases.make_case(setup, model, "decode_tokens_per_second", 30.0, ENV)
        b = cases.make_case(setup, model, "decode_tokens_per_second", 40.0, ENV, shapes_seen=True)
        self.assertNotIn("attention_shapes_seen", a["runtime"]["settings"])
        self.assertTrue(b["runtime"]["settings"]["attention_shapes_seen"])
        self.assertIn("different settings", self.combine_refusal(a, b))

    def test_a_decode_runs_attention_shapes_seen_when_an_earlier_setup_ran_them(self):
        # cuDNN attention's graphs are keyed by heads, head size, dtype, batch and key length:
        # Llama 3.1 8B's SDPA decode runs Qwen3 4B's shapes (32/8/128 heads) at the same lengths;
        # a shorter run of the same prompt is covered too, a longer one is not.
        catalog = plan.models()
        seen = {}
        marks = {}
        for s in plan.default_plan():
            if s.mode != "inference" or s.attention != "sdpa":
                continue
            shapes = cases.attention_shapes(s, catalog[s.model]["config"])
            marks[s.id] = cases.shapes_seen(seen, shapes)
            seen.setdefault(shapes[0], []).append(shapes[1])
        self.assertEqual(sorted(k for k, v in marks.items() if v),
                         ["MEAS-llama-3.1-8b-inference-bf16-sdpa-b1x512-new256",
                          "MEAS-llama-3.1-8b-inference-bf16-sdpa-b8x2048-new128"])
        qwen = plan.Setup("qwen3-4b", "inference", "bf16", "sdpa", batch=1, sequence=512, new_tokens=64)
        self.assertTrue(cases.shapes_seen(seen, cases.attention_shapes(qwen, catalog["qwen3-4b"]["config"])))
        longer = plan.Setup("qwen3-4b", "inference", "bf16", "sdpa", batch=1, sequence=512, new_tokens=512)
        self.assertFalse(cases.shapes_seen(seen, cases.attention_shapes(longer, catalog["qwen3-4b"]["config"])))
        self.assertEqual(cases.attention_shapes(qwen, {"model_type": "x"}), None)
        # The prompt's pass is timed after a warm-up of the same prompt: always seen.
        pre = cases.make_case(qwen, catalog["qwen3-4b"], "prefill_tokens_per_second", 9000.0, ENV)
        self.assertTrue(pre["runtime"]["settings"]["attention_shapes_seen"])

    def test_the_committed_runs_combine_into_the_dev_cases(self):
        runs = ROOT / "tests" / "data" / "cases" / "runs"
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "cases.json")
            with contextlib.redirect_stderr(io.StringIO()):
                cli.main(["--combine", str(runs / "h200_2026-11-30_run1.json"), str(runs / "h200_2026-11-30_run2.json"),
                          "--out", out])
            with open(out, encoding="utf-8") as f:
                combined = {c["id"]: c["measured"] for c in json.load(f)}
        dev = {}
        for name in ("memory_cases_dev.json", "throughput_cases_dev.json"):
            with open(ROOT / "tests" / "data" / "cases" / name, encoding="utf-8") as f:
                dev.update({c["id"]: c["measured"] for c in json.load(f) if c["id"] in combined})
        self.assertEqual(len(dev), len(combined))
        for cid, measured in combined.items():
            self.assertEqual(measured["metric"], dev[cid]["metric"], cid)
            self.assertAlmostEqual(measured["value"], dev[cid]["value"], places=4, msg=cid)

    def test_gpt2_cases_carry_the_schema_names(self):
        arch = cases.case_architecture(plan.models()["gpt2-xl"]["config"])
        self.assertEqual((arch["num_hidden_layers"], arch["hidden_size"], arch["num_attention_heads"]), (48, 1600, 25))
        self.assertEqual(arch["intermediate_size"], 4 * 1600)
        self.assertNotIn("n_layer", arch)

    def test_a_case_carries_its_versions_settings_and_figure(self):
        setup = plan.select(plan.default_plan(), ["bf16_adamw", "eager", "nogc", "qwen3-4b"])[0]
        case = cases.make_case(setup, plan.models()[setup.model], "torch_max_allocated", 21474836480, ENV)
        self.assertEqual(case["measured"], {"value": 20.0, "unit": "GiB", "metric": "torch_max_allocated"})
        self.assertEqual(case["workload"]["master_weights"], False)
        self.assertEqual(case["workload"]["attention_implementation"], "eager")
        self.assertEqual(case["runtime"]["settings"]["optimizer_state_dtype"], "bfloat16")
        for version in ("torch 2.11.0+cu128", "transformers 5.17.0", "peft 0.18.0", "cuda 12.8"):
            self.assertIn(version, case["runtime"]["version"])
        self.assertEqual(case["hardware"]["gpu"], "H200-SXM-141GB")
        self.assertEqual(case["model"]["architecture"]["model_type"], "qwen3")

    def test_validation_names_the_path_and_what_was_expected(self):
        good = planned_cases()[0]
        for path, change, expect in (
            ("/measured/unit", lambda c: c["measured"].pop("unit"), "/measured/unit: expected one of"),
            ("/quantity", lambda c: c.update(quantity="speed"), "/quantity: expected one of memory, throughput"),
            ("/workload/batch_size", lambda c: c["workload"].update(batch_size=0), "/workload/batch_size: expected at least 1"),
            ("/model/params", lambda c: c["model"].update(params=1.5), "/model/params: expected a whole number"),
            ("/measured/value", lambda c: c["measured"].update(value=float("nan")), "/measured/value: expected a number"),
        ):
            case = copy.deepcopy(good)
            change(case)
            faults = cases.validate_case(case)
            self.assertTrue(any(f.startswith(expect) for f in faults), f"{path}: {faults}")

    def test_throughput_cases_need_a_phase(self):
        case = next(c for c in planned_cases() if c["quantity"] == "throughput")
        case["workload"].pop("phase")
        self.assertTrue(any(f.startswith("/workload/phase") for f in cases.validate_case(case)))


@unittest.skipUnless(os.environ.get("GPUFLEET_BIN"), "GPUFLEET_BIN (the gpufleet CLI) not set: ctest sets it")
class Harness(unittest.TestCase):
    def test_the_accuracy_harness_predicts_every_written_case(self):
        written = planned_cases()
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "measured.json"
            path.write_text(json.dumps(written), encoding="utf-8")
            out = subprocess.run([os.environ["GPUFLEET_BIN"], "--config", str(ROOT / "config"), "--format", "json",
                                  "accuracy", str(path)], capture_output=True, text=True, check=False)
        self.assertEqual(out.returncode, 0, out.stderr)
        rows = json.loads(out.stdout)["result"]["cases"]
        self.assertEqual([r["id"] for r in rows], [c["id"] for c in written])
        for row in rows:
            self.assertNotIn("skipped", row, row["id"])
            self.assertGreater(row["predicted"], 0, row["id"])


if __name__ == "__main__":
    unittest.main()
