#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/ (run from the repository root; rewrites every file).

corpus/request/ (fuzz_request: the input is one request): every tests/cases/*.request.json, a few of
tests/cases/bad/, and requests for the questions the golden cases do not cover (plan, decide,
schedules and pricing), at ordinary and extreme values.
corpus/catalog/ (fuzz_catalog): mode B ('B' + gpu_instances SEP model_config SEP workloads [SEP
request]; an empty part keeps the shipped file): a compact two-family catalog that loads, variants of
it with extreme but accepted values (zeros, the least and largest prices, the maxima the loader
allows, no prices), and variants the loader must reject (a string for a number, a missing field,
numbers out of range, deep nesting, empty objects); mode P ('P' + a price file [SEP request]): the
shipped us-east-1 file, the same at the extreme prices, and rejected variants.
Reproducers of findings go to tests/fuzz/regressions/{request,catalog}/ instead."""
import copy
import glob
import json
import os

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
out = 'tests/fuzz/corpus'
SEP = '\n@@\n'
for sub in ('request', 'catalog'):
    os.makedirs(os.path.join(out, sub), exist_ok=True)
    for old in glob.glob(os.path.join(out, sub, '*')): os.remove(old)
def w(name, data):
    """'a_' + name: a request (written without its old mode byte 'A'); else a catalog target input."""
    if isinstance(data, str): data = data.encode()
    if name.startswith('a_'):
        name, data, sub = name[2:], data[1:], 'request'
    else:
        sub = 'catalog'
    open(os.path.join(out, sub, name), 'wb').write(data)
# mode A: every request of tests/cases
for f in sorted(glob.glob('tests/cases/*.request.json')):
    name = os.path.basename(f).replace('.request.json', '')
    w('a_' + name, b'A' + open(f, 'rb').read())
# a few mode-A extras from the bad corpus
for n in ['invalid_utf8']:
    f = f'tests/cases/bad/{n}.request.json'
    if os.path.exists(f): w('a_bad_' + n, b'A' + open(f, 'rb').read())
plan = json.load(open('tests/cases/plans/seed001.json'))
w('a_plan_seed001', 'A' + json.dumps({"question": "plan", "plan": plan}))
w('a_decide_training', 'A' + json.dumps({"question": "decide", "model": {"params_b": 13}, "workload": "training", "precision": "bf16", "goal": "cost", "framework": "jax"}))
w('a_decide_inference', 'A' + json.dumps({"question": "decide", "model": {"params_b": 1}, "workload": "inference", "precision": "fp16", "latency_ms": 8, "goal": "performance", "edge": False, "batch": True, "model_kind": "transformer"}))
w('a_cost_mixed_schedule', 'A' + json.dumps({"question": "cost", "instance": "g5.xlarge", "gpus": 3, "schedule": {"hours_per_week": 40, "weeks_per_month": 4.3}, "pricing": "mixed", "spot_share": 0.5}))
w('a_fit_reserved', 'A' + json.dumps({"question": "fit", "model": {"params_b": 70}, "workload": "fine_tuning", "precision": "fp8", "instance": "P5e", "gpus": 8, "schedule": {"always_on": True, "off_hours_per_day": 6}, "pricing": "reserved_3y"}))
w('a_migrate_providers', 'A' + json.dumps({"question": "migrate", "current": {"instance": "g6e.12xlarge", "gpus": 4}, "model": {"size": "medium"}, "workload": "inference", "precision": "int8", "schedule": {"hours_per_day": 10, "days_per_month": 21}, "pricing": "reserved_1y", "priority": "balanced", "providers": ["aws"]}))
w('a_tiny_hours_balanced', 'A' + json.dumps({"question": "recommend", "model": {"params_b": 13}, "workload": "inference", "precision": "fp16", "priority": "balanced", "hours_per_month": 5e-324}))
w('a_tiny_schedule_mixed', 'A' + json.dumps({"question": "cost", "instance": "P5", "gpus": 5e-324, "pricing": "mixed", "spot_share": 5e-324, "schedule": {"hours_per_week": 5e-324, "weeks_per_month": 5e-324}}))
# every question kind the golden cases reach only once or not at all, at ordinary and extreme values
llama = json.load(open("config/model_config.json"))["models"]["llama-3-8b"]["config"]
for name, req in {
    'memory_inference': {"question": "memory", "model": {"name": "llama-3.1-8b"}, "weight_format": "awq_int4", "context": 131072, "batch": 64, "engine": "vllm", "gpu": "L4", "tensor_parallel": 2, "gpus": 2},
    'memory_training_extremes': {"question": "memory", "model": {"hf_config": llama}, "mode": "full_finetune", "optimizer": "adamw_8bit", "batch": 1e5, "context": 1e7, "gradient_checkpointing": False, "sharding": "zero3", "gpus": 4096, "cpu_offload": True},
    'memory_lora': {"question": "memory", "model": {"name": "mistral-7b-v0.1"}, "mode": "qlora", "lora": {"rank": 65536, "target_modules": ["q_proj", "v_proj"]}, "weight_format": "nf4"},
    'estimate_one': {"question": "estimate", "model": {"name": "llama-3.1-70b"}, "weight_format": "fp8", "instance": "p5.48xlarge", "tensor_parallel": 8, "input_tokens": 4096, "output_tokens": 1, "concurrency": 406},
    'estimate_rank': {"question": "estimate", "model": {"name": "llama-3.1-8b"}, "weight_format": "bf16", "rank": True, "max_ttft_ms": 1e-9, "max_tpot_ms": 1e9, "limit": 1000, "providers": ["gcp", "azure"]},
    'estimate_training': {"question": "estimate", "model": {"hf_config": llama}, "phase": "training", "instance": "p5.48xlarge", "gpus": 8, "dataset_tokens": 1e16, "epochs": 1e4, "context": 1, "gradient_checkpointing": True},
    'right_size': {"question": "right_size", "models": [{"model": {"name": "llama-3.1-405b"}, "weight_format": "fp32"}, {"model": {"name": "whisper-large-v3"}, "engine": "whisper.cpp", "beams": 5}], "hours_per_month": 1, "providers": ["aws"]},
    'accuracy_cases': {"question": "accuracy", "cases": json.load(open('tests/data/cases/memory_cases_dev.json'))[:3] + json.load(open('tests/data/cases/throughput_cases_dev.json'))[:3]},
    'road_demand': {"question": "recommend", "model": {"name": "llama-3.1-70b"}, "workload": "inference", "weight_format": "fp8", "kv_cache_format": "fp8", "demand": {"requests_per_s": 1e6, "input_tokens": 1e7, "output_tokens": 1, "max_ttft_ms": 1e-6, "target_utilization": 1}, "priority": "reliability"},
    'road_training_deadline': {"question": "recommend", "model": {"params_b": 405}, "workload": "fine_tuning", "demand": {"dataset_tokens": 1e16, "epochs": 1e4, "deadline_days": 1e-3}, "recipe": {"optimizer": "sgd", "master_weights": False, "sharding": "none", "micro_batch": 1e5, "sequence_length": 1e7}},
    'road_batch_seed': {"question": "migrate", "current": {"instance": "P4d", "gpus": 8}, "model": {"size": "massive"}, "workload": "batch_inference", "memory_method": "seed", "demand": {"dataset_tokens": 1, "deadline_days": 36500}, "kinds": ["cpu", "trainium"]},
}.items():
    w('a_' + name, 'A' + json.dumps(req))
w('a_sweep_extremes', 'A' + json.dumps({"question": "recommend", "model": {"params_b": 1e-9}, "workload": "training", "precision": "fp32", "priority": "balanced", "use_spot": True, "hours_per_month": 744, "max_usd_per_month": 1e300, "min_gpus": 1, "limit": 1}))

gi = json.load(open('config/gpu_instances.json'))
mc = json.load(open('config/model_config.json'))
wl = json.load(open('config/workloads.json'))
def B(g=None, m=None, wk=None, req=None):
    parts = [json.dumps(x, indent=1) if x is not None else '' for x in (g, m, wk)]
    s = 'B' + SEP.join(parts)
    if req is not None: s += SEP + req
    return s
# shipped, unchanged (all parts empty = shipped)
w('b_shipped', 'B')
# compact gpu_instances: two families, no notes/sources -> cheaper to mutate
small = {"catalog_info": {k: gi["catalog_info"][k] for k in ("name", "version", "date", "region", "provider", "price_unit")},
         "gpus": {k: {kk: vv for kk, vv in gi["gpus"][k].items() if kk not in ("source", "usable_memory_source")} for k in ("L40S", "H100-SXM-80GB")},
         "gpu_instances": {}}
for fam in ("G6e", "P5"):
    f = {k: v for k, v in gi["gpu_instances"][fam].items() if k not in ("source", "spec_source", "price_notes", "interconnect_notes", "estimates", "description")}
    if "sizes" in f:
        f["sizes"] = {sk: {k: v for k, v in sv.items() if k not in ("source", "price_notes")} for sk, sv in list(f["sizes"].items())[:3]}
    small["gpu_instances"][fam] = f

cw = {"workloads": {
        "inf_p5": {"name": "n", "description": "d", "scenario": {"current_instance": "P5", "current_gpu_count": 1, "workload_type": "INFERENCE", "model_size": "SMALL", "monthly_hours": 720, "use_spot": False, "precision": "fp16"}, "expected_outcome": "e", "tags": ["t"]},
        "train_g6e": {"name": "n", "description": "d", "scenario": {"current_instance": "g6e.xlarge", "current_gpu_count": 4, "workload_type": "TRAINING", "model_size": "LARGE", "monthly_hours": 500, "use_spot": True, "precision": "bf16", "priority": "performance"}, "expected_outcome": "e", "tags": []}},
      "workload_sets": {"comprehensive_suite": ["inf_p5", "train_g6e"]}}
# compact catalog that loads: two families, two workloads
w('b_compact', B(small, None, cw))
# --- variants that still load: extreme but in-range values reach the analysis ---
g = copy.deepcopy(small)
for fam in g["gpu_instances"].values():
    fam["compute_tflops"] = 0; fam["interconnect_multiplier"] = 0; fam["interconnect_bandwidth_gbps"] = 0
for gp in g["gpus"].values():
    gp["tflops"] = {k: 0 for k in gp.get("tflops", {})}
w('b_ok_zero_compute', B(g, None, cw))
g = copy.deepcopy(small)
for fam in g["gpu_instances"].values():
    fam["gpu_memory_gb"] = 0.1; fam["memory_bandwidth_factor"] = 1e-4; fam["on_demand_cost_per_hour"] = 1e-6
    fam["compute_tflops"] = 0.001; fam["interconnect_bandwidth_gbps"] = 0.001
    for sz in fam.get("sizes", {}).values():
        sz["on_demand_cost_per_hour"] = 1e-6
        if "spot_cost_per_hour" in sz: sz["spot_cost_per_hour"] = 1e-6
for gp in g["gpus"].values():
    gp["memory_gb"] = 0.1; gp["usable_memory_mib"] = 64; gp["memory_bandwidth_gb_per_s"] = 1
    gp["tflops"] = {k: 0.001 for k in gp.get("tflops", {})}
m = copy.deepcopy(mc)
for ms in m["model_sizes"].values(): ms["parameter_count_billion"] = 5e-324
for pf in m["precision_formats"].values(): pf["bytes_per_parameter"] = 5e-324
w('b_ok_tiny_values', B(g, m, cw))
g = copy.deepcopy(small)
for fam in g["gpu_instances"].values():
    fam["gpu_memory_gb"] = 4096; fam["gpus_per_instance"] = 64; fam["compute_tflops"] = 1e6
    fam["on_demand_cost_per_hour"] = 10000; fam["memory_bandwidth_factor"] = 10; fam["interconnect_bandwidth_gbps"] = 1e6
    for sz in fam.get("sizes", {}).values():
        sz["on_demand_cost_per_hour"] = 10000; sz["gpus_per_instance"] = 64
        if "spot_cost_per_hour" in sz: sz["spot_cost_per_hour"] = 9999.99
for gp in g["gpus"].values():
    gp["memory_gb"] = 4096; gp["usable_memory_mib"] = 4194304; gp["memory_bandwidth_gb_per_s"] = 1e6
    gp["tflops"] = {k: 1e6 for k in gp.get("tflops", {})}
m = copy.deepcopy(mc)
for ms in m["model_sizes"].values(): ms["parameter_count_billion"] = 100000; ms["memory_overhead_multiplier"] = 100
for pf in m["precision_formats"].values(): pf["bytes_per_parameter"] = 16
for k in ("training_multiplier", "fine_tuning_multiplier", "inference_multiplier"): m["memory_planning"][k] = 100
k = copy.deepcopy(cw)
for wk in k["workloads"].values(): wk["scenario"]["current_gpu_count"] = 4096; wk["scenario"]["monthly_hours"] = 744
w('b_ok_max_values', B(g, m, k))
k = copy.deepcopy(cw)
for wk in k["workloads"].values(): wk["scenario"]["current_gpu_count"] = 5e-324; wk["scenario"]["monthly_hours"] = 5e-324
w('b_ok_tiny_workloads', B(small, None, k))
# prices absent everywhere (unknown on-demand and spot)
g = copy.deepcopy(small)
for fam in g["gpu_instances"].values():
    fam.pop("on_demand_cost_per_hour", None); fam.pop("spot_cost_per_hour", None)
    for sz in fam.get("sizes", {}).values(): sz.pop("on_demand_cost_per_hour", None); sz.pop("spot_cost_per_hour", None)
w('b_ok_no_prices', B(g, None, cw))
# --- variants the loader rejects: faults must come back as errors ---
g = copy.deepcopy(small); g["gpu_instances"]["P5"]["on_demand_cost_per_hour"] = "98.32"
w('b_bad_price_string', B(g, None, cw))
g = copy.deepcopy(small); del g["gpu_instances"]["G6e"]["gpus_per_instance"]
w('b_bad_missing_field', B(g, None, cw))
g = copy.deepcopy(small)
g["gpu_instances"]["G6e"]["gpu_memory_gb"] = 1e308; g["gpu_instances"]["P5"]["gpus_per_instance"] = 1e308
g["gpus"]["L40S"]["memory_bandwidth_gb_per_s"] = 1.7976931348623157e308
w('b_bad_huge_numbers', B(g, None, cw))
w('b_bad_empty_objects', B({"catalog_info": {}, "gpus": {}, "gpu_instances": {}}, {"model_sizes": {}, "precision_formats": {}, "memory_planning": {}}, {"workloads": {}, "workload_sets": {}}))
w('b_bad_empty_top', 'B{}' + SEP + '{}' + SEP + '{}')
deep = '[' * 40 + ']' * 40
w('b_bad_deep_nesting', 'B' + json.dumps(small, indent=1).replace('"catalog_info": {', '"catalog_info": {"deep": ' + deep + ',', 1))
m = copy.deepcopy(mc); del m["model_sizes"]["small"]["memory_overhead_multiplier"]; m["precision_formats"]["bf16"]["native_architectures"] = "Hopper"
w('b_bad_model_wrong_types', B(None, m))
k = copy.deepcopy(wl); next(iter(k["workloads"].values()))["scenario"]["model_size"] = 7
k["workload_sets"]["dup"] = ["inference_small_p5", "inference_small_p5"]
w('b_bad_workloads', B(None, None, k))
g = copy.deepcopy(small)
for fam in g["gpu_instances"].values():
    fam["on_demand_cost_per_hour"] = 5e-324
w('b_bad_price_below_floor', B(g, None, cw))
# mode P: a price file (prices/aws/us-east-1.json) beside the shipped catalog files
pf = json.load(open('config/prices/aws/us-east-1.json'))
w('p_shipped', 'P' + json.dumps(pf, indent=1))
p = copy.deepcopy(pf)
p["offers"] = dict(list(p["offers"].items())[:12])
for o in p["offers"].values():
    for k in ("on_demand_cost_per_hour", "spot_cost_per_hour", "spot_median_cost_per_hour"):
        if k in o: o[k] = 1e-6
w('p_ok_least_prices', 'P' + json.dumps(p, indent=1) + SEP + json.dumps({"question": "estimate", "model": {"name": "llama-3-8b"}, "rank": True, "region": "us-east-1", "providers": ["aws"]}))
p = copy.deepcopy(pf)
p["offers"] = dict(list(p["offers"].items())[:12])
for o in p["offers"].values():
    if "on_demand_cost_per_hour" in o: o["on_demand_cost_per_hour"] = 5e-324
w('p_bad_below_floor', 'P' + json.dumps(p, indent=1))
w('p_bad_unknown_field', 'P' + json.dumps(dict(pf, offers={"g6e.xlarge": {"on_demand_cost_per_hour": 1.86, "price": 1}}), indent=1))
# all three replaced plus an extra request
w('b_ok_with_request', B(small, None, cw, json.dumps({"question": "recommend", "model": {"params_b": 1000}, "workload": "training", "precision": "fp8", "use_spot": True, "priority": "performance", "limit": 3})))
# the full shipped catalogs (all parts empty)
w('b_shipped', 'B')
