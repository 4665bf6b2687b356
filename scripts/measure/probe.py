"""The host's side of a GPU run, measured apart from the cases: how many kernels one eager decode
step launches (torch.profiler), how long the host takes per launched kernel, how long a bare eager
op takes to dispatch, and where a training step's time and memory go (forward, backward,
optimizer.step), how long one cuDNN attention graph takes to build, and how many kernels each phase
of a training step launches. Run on a CUDA GPU:  python3 -m measure.probe OUT.json  (from scripts/)."""

from __future__ import annotations

import json
import statistics
import sys
import time

from . import plan, torch_runs

# Models for the host's us per kernel: none of them is a measured case's model.
HOST_MODELS = ("qwen2.5-7b", "mistral-7b-v0.1", "phi-3-mini-4k-instruct")
# Models whose kernels per decode step are counted (the cases' models among them).
COUNTED_MODELS = HOST_MODELS + ("qwen3-4b", "llama-3.1-8b", "gpt2-xl")


def _sync_time(fn, repeats: int) -> tuple[float, float]:
    """(median seconds to return to the host, median seconds until the GPU is done)."""
    import torch

    host, total = [], []
    for _ in range(repeats):
        torch.cuda.synchronize()
        start = time.perf_counter()
        fn()
        host.append(time.perf_counter() - start)
        torch.cuda.synchronize()
        total.append(time.perf_counter() - start)
    return statistics.median(host), statistics.median(total)


def bare_op_us() -> dict:
    import torch

    x = torch.ones(16, device="cuda")
    out = {}
    for name, fn in (("add", lambda: x + 1), ("mul_scalar_inplace", lambda: x.mul_(1.0)),
                     ("to_float", lambda: x.to(torch.bfloat16))):
        for _ in range(200):
            fn()
        torch.cuda.synchronize()
        n = 20000
        start = time.perf_counter()
        for _ in range(n):
            fn()
        out[name] = (time.perf_counter() - start) / n * 1e6
        torch.cuda.synchronize()
    return out


def _count(prof) -> dict:
    import torch

    kernels = launches = copies = syncs = 0
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            kernels += 1
        elif "LaunchKernel" in e.name:
            launches += 1
        elif "Memcpy" in e.name:
            copies += 1
        elif "Synchronize" in e.name:
            syncs += 1
    return {"gpu_events": kernels, "launch_calls": launches, "memcpy_calls": copies, "sync_calls": syncs}


def decode_step(key: str, attention: str, context: int = 512) -> dict:
    import torch
    from torch.profiler import ProfilerActivity, profile

    catalog = plan.models()
    setup = plan.Setup(key, "inference", "bf16", attention, batch=1, sequence=context, new_tokens=1)
    model = torch_runs._build(setup, catalog[key]["config"]).eval()
    ids = torch_runs._tokens(setup, catalog[key]["config"])
    with torch.inference_mode():
        out = model(input_ids=ids, use_cache=True)
        cache = out.past_key_values
        nxt = out.logits[:, -1:].argmax(-1)

        def step():
            model(input_ids=nxt, past_key_values=cache, use_cache=True)

        for _ in range(3):
            step()
        host_s, total_s = _sync_time(step, 15)
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            step()
            torch.cuda.synchronize()
    layers = int(catalog[key]["config"].get("num_hidden_layers") or catalog[key]["config"].get("n_layer"))
    counts = _count(prof)
    del model, cache, out
    torch.cuda.empty_cache()
    return {"model": key, "attention": attention, "layers": layers, "context": context,
            "step_host_ms": host_s * 1e3, "step_total_ms": total_s * 1e3, **counts,
            "host_us_per_launch": host_s * 1e6 / max(counts["launch_calls"], 1)}


def cudnn_graph_builds(key: str, context: int = 700, steps: int = 12) -> dict:
    """What one cuDNN attention graph costs the host: SDPA decode steps whose key lengths the
    process has not run (each builds a graph: aten/src/ATen/native/cudnn/MHA.cpp), then the same
    steps again from a fresh cache of the same prompt (every graph cached), then again with cuDNN
    attention off (torch.backends.cuda.enable_cudnn_sdp(False): flash). A context no other probe
    runs keeps the first pass's shapes new."""
    import torch

    catalog = plan.models()
    setup = plan.Setup(key, "inference", "bf16", "sdpa", batch=1, sequence=context, new_tokens=1)
    model = torch_runs._build(setup, catalog[key]["config"]).eval()
    ids = torch_runs._tokens(setup, catalog[key]["config"])

    def pass_ms() -> list[float]:
        out = model(input_ids=ids, use_cache=True)
        cache, nxt = out.past_key_values, out.logits[:, -1:].argmax(-1)
        times = []
        for _ in range(steps):
            _, total = _sync_time(lambda: model(input_ids=nxt, past_key_values=cache, use_cache=True), 1)
            times.append(total * 1e3)
        return times

    with torch.inference_mode():
        new = pass_ms()
        cached = pass_ms()
        torch.backends.cuda.enable_cudnn_sdp(False)
        try:
            flash = pass_ms()
        finally:
            torch.backends.cuda.enable_cudnn_sdp(True)
    del model
    torch.cuda.empty_cache()
    median = statistics.median
    return {"model": key, "context": context, "steps": steps, "new_shape_step_ms": new, "cached_step_ms": cached,
            "cudnn_off_step_ms": flash, "graph_build_ms": median(new) - median(cached)}


def _trainer(key: str, recipe: str, gc: bool, batch: int, sequence: int):
    """A model of the catalog built for a full fine-tuning step (random weights), its
    torch.optim.AdamW, a batch of token ids, and whether the recipe runs under autocast."""
    import torch

    catalog = plan.models()
    setup = plan.Setup(key, "full_finetune", recipe, "sdpa", batch=batch, sequence=sequence, gradient_checkpointing=gc)
    model = torch_runs._build(setup, catalog[key]["config"]).train()
    model.config.use_cache = False
    if gc:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-5)
    ids = torch_runs._tokens(setup, catalog[key]["config"])
    return model, opt, ids, plan.RECIPES[recipe]["compute_precision"] == "amp_bf16"


def training_launches(key: str, recipe: str, batch: int = 2, sequence: int = 1024) -> dict:
    """Kernels one eager training step launches, by phase (forward with the loss, backward,
    optimizer.step with torch.optim.AdamW's default foreach), counted by torch.profiler after a
    warm-up step: what a host-side floor of a small model's step would be built from."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    catalog = plan.models()
    model, opt, ids, amp = _trainer(key, recipe, False, batch, sequence)
    phases = {}

    def run(label=None):
        def phase(name, fn):
            if label is None:
                return fn()
            torch.cuda.synchronize()
            start = time.perf_counter()
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
                value = fn()
                torch.cuda.synchronize()
            phases[name] = {**_count(prof), "ms_profiled": (time.perf_counter() - start) * 1e3}
            return value

        def forward():
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
                return model(input_ids=ids, labels=ids, use_cache=False).loss

        loss = phase("forward", forward)
        phase("backward", loss.backward)
        phase("optimizer", opt.step)
        opt.zero_grad(set_to_none=True)

    run()
    run("counted")
    layers = int(catalog[key]["config"].get("num_hidden_layers") or catalog[key]["config"].get("n_layer"))
    tensors = sum(1 for p in model.parameters() if p.requires_grad)
    del model, opt
    torch.cuda.empty_cache()
    return {"model": key, "recipe": recipe, "batch": batch, "sequence": sequence, "layers": layers,
            "parameter_tensors": tensors, "phases": phases}


def training_phases(key: str, recipe: str, gc: bool, batch: int = 2, sequence: int = 1024) -> dict:
    import torch

    model, opt, ids, amp = _trainer(key, recipe, gc, batch, sequence)
    gib = 2**30
    rows = []
    for i in range(3):
        row = {}
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        row["start_alloc_gib"] = torch.cuda.memory_allocated() / gib
        t0 = time.perf_counter()
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            loss = model(input_ids=ids, labels=ids, use_cache=False).loss
        torch.cuda.synchronize()
        t1 = time.perf_counter()
        row["forward_peak_gib"] = torch.cuda.max_memory_allocated() / gib
        row["after_forward_gib"] = torch.cuda.memory_allocated() / gib
        torch.cuda.reset_peak_memory_stats()
        loss.backward()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        row["backward_peak_gib"] = torch.cuda.max_memory_allocated() / gib
        row["after_backward_gib"] = torch.cuda.memory_allocated() / gib
        torch.cuda.reset_peak_memory_stats()
        opt.step()
        torch.cuda.synchronize()
        t3 = time.perf_counter()
        row["optimizer_peak_gib"] = torch.cuda.max_memory_allocated() / gib
        opt.zero_grad(set_to_none=True)
        row.update({"forward_ms": (t1 - t0) * 1e3, "backward_ms": (t2 - t1) * 1e3, "optimizer_ms": (t3 - t2) * 1e3})
        rows.append(row)
    params = sum(p.numel() for p in model.parameters())
    del model, opt, loss
    torch.cuda.empty_cache()
    return {"model": key, "recipe": recipe, "gradient_checkpointing": gc, "batch": batch, "sequence": sequence,
            "parameters": params, "steps": rows}


def main(out_path: str) -> int:
    import torch

    result = {"environment": torch_runs.environment(None), "bare_op_us": None, "decode_steps": [],
              "cudnn_graph_builds": [], "training_launches": [], "training_phases": [], "errors": []}

    def save():
        with open(out_path, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)

    def attempt(label, fn):
        try:
            return fn()
        except Exception as e:  # noqa: BLE001 - one probe's failure is recorded, the others still run
            result["errors"].append(f"{label}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
            torch.cuda.empty_cache()
            return None
        finally:
            save()
            print(f"# {label} done", file=sys.stderr, flush=True)

    result["bare_op_us"] = attempt("bare ops", bare_op_us)
    for key in COUNTED_MODELS:
        for attention in ("eager", "sdpa"):
            row = attempt(f"decode {key} {attention}", lambda: decode_step(key, attention))
            if row:
                result["decode_steps"].append(row)
    for key in HOST_MODELS:
        row = attempt(f"cudnn graphs {key}", lambda: cudnn_graph_builds(key))
        if row:
            result["cudnn_graph_builds"].append(row)
    for key in ("gpt2-large", "phi-3-mini-4k-instruct"):
        row = attempt(f"training launches {key}", lambda: training_launches(key, "bf16_adamw"))
        if row:
            result["training_launches"].append(row)
    for key, recipe, gc in (("phi-3-mini-4k-instruct", "bf16_adamw", False), ("phi-3-mini-4k-instruct", "bf16_adamw", True),
                            ("phi-3-mini-4k-instruct", "amp_bf16", False), ("gpt2-large", "amp_bf16", False)):
        row = attempt(f"training {key} {recipe} gc={gc}", lambda: training_phases(key, recipe, gc))
        if row:
            result["training_phases"].append(row)
    save()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
