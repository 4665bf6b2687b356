"""The runs themselves, on a CUDA GPU: PyTorch + transformers (+ peft for LoRA). Imported only when
measuring; everything else in scripts/measure imports without torch."""

from __future__ import annotations

import datetime
import gc
import platform
import statistics
import subprocess
import time

from .plan import RECIPES, Setup

# torch.cuda.get_device_name() -> the GPU's name in the case files (gpu_specs_reference.json).
GPU_NAMES = (
    ("H200", "H200-SXM-141GB"),
    ("H100 80GB HBM3", "H100-SXM-80GB"),
    ("H100 PCIe", "H100-PCIe-80GB"),
    ("A100-SXM4-80GB", "A100-80GB"),
    ("A100 80GB PCIe", "A100-80GB"),
    ("A100-SXM4-40GB", "A100-40GB"),
    ("A100-PCIE-40GB", "A100-40GB"),
    ("L40S", "L40S"),
    ("L4", "L4"),
    ("RTX 4090", "RTX-4090"),
    ("RTX 3090", "RTX-3090"),
)


def case_gpu_name(device_name: str) -> str:
    for fragment, name in GPU_NAMES:
        if fragment in device_name:
            return name
    return device_name


def _host_cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "not read"


def _driver() -> str:
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20, check=False)
        return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else "not read"
    except (OSError, subprocess.SubprocessError):
        return "not read"


def environment(gpu_override: str | None = None) -> dict:
    """The exact versions, GPU and host a run uses (written into every case)."""
    import torch
    import transformers

    try:
        import peft

        peft_version = peft.__version__
    except ImportError:
        peft_version = None
    name = torch.cuda.get_device_name(0)
    return {
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "peft": peft_version,
        "cuda": torch.version.cuda,
        "cudnn": str(torch.backends.cudnn.version()),
        "python": platform.python_version(),
        "gpu_name": name,
        "gpu": gpu_override or case_gpu_name(name),
        "driver": _driver(),
        "cpu": _host_cpu(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
    }


def _build(setup: Setup, config: dict):
    """The model from its config.json values, random weights, on the GPU in the recipe's dtype."""
    import torch
    import transformers

    values = {k: v for k, v in config.items() if k != "model_type"}
    cfg = transformers.AutoConfig.for_model(config["model_type"], **values)
    dtype = torch.bfloat16 if RECIPES[setup.recipe]["weight_format"] == "bf16" else torch.float32
    with torch.device("cuda"):
        try:  # transformers 5 names it dtype, 4.x torch_dtype
            model = transformers.AutoModelForCausalLM.from_config(cfg, dtype=dtype, attn_implementation=setup.attention)
        except TypeError:
            model = transformers.AutoModelForCausalLM.from_config(cfg, torch_dtype=dtype,
                                                                  attn_implementation=setup.attention)
    return model.to(device="cuda", dtype=dtype)


def _tokens(setup: Setup, config: dict):
    import torch

    vocab = int(config["vocab_size"])
    return torch.randint(low=10, high=max(11, vocab - 10), size=(setup.batch, setup.sequence), device="cuda")


def _timed(fn) -> float:
    import torch

    torch.cuda.synchronize()
    start = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    return time.perf_counter() - start


def _inference(setup: Setup, config: dict) -> dict:
    import torch

    model = _build(setup, config).eval()
    ids = _tokens(setup, config)
    mask = torch.ones_like(ids)
    gen = dict(attention_mask=mask, do_sample=False, pad_token_id=0, max_new_tokens=setup.new_tokens,
               min_new_tokens=setup.new_tokens, use_cache=True)
    with torch.inference_mode():
        model.generate(ids, **{**gen, "max_new_tokens": 4, "min_new_tokens": 4})  # warm-up
        prefill = statistics.median(_timed(lambda: model(input_ids=ids, attention_mask=mask, use_cache=True))
                                    for _ in range(3))
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        total = _timed(lambda: model.generate(ids, **gen))
    peak = torch.cuda.max_memory_allocated()
    decode_s = max(total - prefill, 1e-9)
    return {
        "torch_max_allocated": peak,
        "decode_tokens_per_second": setup.batch * setup.new_tokens / decode_s,
        "prefill_tokens_per_second": setup.batch * setup.sequence / prefill,
    }


def _training(setup: Setup, config: dict) -> dict:
    import torch

    model = _build(setup, config).train()
    model.config.use_cache = False
    if setup.gradient_checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if setup.mode == "lora":
        from peft import LoraConfig, get_peft_model

        model = get_peft_model(model, LoraConfig(r=setup.lora_rank, lora_alpha=2 * setup.lora_rank, lora_dropout=0.0,
                                                 target_modules=list(setup.lora_targets), task_type="CAUSAL_LM"))
        if setup.gradient_checkpointing:
            model.enable_input_require_grads()
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=1e-5)
    ids = _tokens(setup, config)
    amp = RECIPES[setup.recipe]["compute_precision"] == "amp_bf16"

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            loss = model(input_ids=ids, labels=ids, use_cache=False).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    _timed(step)  # warm-up: allocates the optimizer's states
    times = [_timed(step) for _ in range(setup.steps)]
    peak = torch.cuda.max_memory_allocated()
    return {
        "torch_max_allocated": peak,
        "training_tokens_per_second_per_gpu": setup.batch * setup.sequence / statistics.median(times),
    }


def run(setup: Setup, config: dict) -> dict:
    """What one setup measures ({figure: value}), or {"error": why} when it could not run."""
    import torch

    try:
        return _inference(setup, config) if setup.mode == "inference" else _training(setup, config)
    except torch.cuda.OutOfMemoryError as e:
        return {"error": f"out of memory: {str(e).splitlines()[0]}"}
    except Exception as e:  # noqa: BLE001 - one setup's failure is reported, the others still run
        return {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
    finally:
        gc.collect()
        torch.cuda.empty_cache()
