"""Measurement cases in tests/data/cases/CASES.md's schema, made from a planned setup, what a run
measured and the exact environment it ran in; and the schema's checks. No torch needed."""

from __future__ import annotations

from .plan import RECIPES, Setup

MODES = ("load_only", "inference", "full_finetune", "lora", "qlora", "pretraining")
COMPUTE = ("fp32", "amp_fp16", "amp_bf16", "bf16", "fp16", "fp8")
PHASES = ("decode", "prefill", "serving", "training")
UNITS = ("GB", "GiB", "MB", "MiB", "tokens/s", "tokens/s/GPU", "ms", "requests/s", "%", "s", "GPU-hours")
MEMORY_METRICS = ("nvidia_smi_used", "torch_max_allocated", "torch_max_reserved", "per_gpu_peak",
                  "weights_only", "kv_cache_capacity", "capacity_boundary")
THROUGHPUT_METRICS = ("tokens_per_second", "ms_per_token", "time_to_first_token_ms", "requests_per_second",
                      "mfu_percent", "gpu_hours", "output_tokens_per_second", "output_tokens_per_second_per_gpu",
                      "tokens_per_second_per_gpu", "tflops_per_gpu", "hardware_tflops_per_gpu",
                      "seconds_per_iteration")
SHARDING = ("none", "zero1", "zero2", "zero3", "fsdp_full_shard")
ARCHITECTURE_REQUIRED = ("model_type", "num_hidden_layers", "hidden_size", "num_attention_heads", "vocab_size")

SOURCE = "gpufleet scripts/measure (random weights from config.json values)"


def framework(setup: Setup) -> str:
    """runtime.framework as the accuracy harness reads it (the engine is its longest known fragment)."""
    if setup.mode == "inference":
        return f"transformers (generate, {setup.attention})"
    if setup.mode == "lora":
        return f"transformers + PEFT (LoRA, torch.optim.AdamW, {setup.attention})"
    return f"transformers (plain PyTorch loop, torch.optim.AdamW, {setup.attention})"


def versions_text(env: dict) -> str:
    keys = ("torch", "transformers", "peft", "cuda", "cudnn", "python")
    return ", ".join(f"{k} {env[k]}" for k in keys if env.get(k))


def _workload(setup: Setup) -> dict:
    recipe = RECIPES[setup.recipe]
    w = {
        "mode": setup.mode,
        "weight_format": recipe["weight_format"],
        "compute_precision": recipe["compute_precision"],
        "optimizer": None if setup.mode == "inference" else "adamw",
        "batch_size": setup.batch,
        "sequence_length": setup.sequence,
        "new_tokens": setup.new_tokens or None,
        "gradient_accumulation_steps": 1,
        "gradient_checkpointing": setup.gradient_checkpointing,
        "flash_attention": False,
        "attention_implementation": setup.attention,
        "kv_cache_format": recipe["weight_format"] if setup.mode == "inference" else None,
        "lora": None,
    }
    if setup.mode == "full_finetune":
        # torch.optim.AdamW keeps its moments in the parameters' dtype; no fp32 master copy unless
        # the parameters themselves are fp32.
        w["master_weights"] = recipe["master_weights"]
    if setup.lora_rank:
        w["lora"] = {"rank": setup.lora_rank, "alpha": 2 * setup.lora_rank,
                     "target_modules": list(setup.lora_targets), "dropout": 0.0}
    return w


def _settings(setup: Setup, env: dict) -> dict:
    recipe = RECIPES[setup.recipe]
    s = {
        "attn_implementation": setup.attention,
        "torch_dtype": "bfloat16" if recipe["weight_format"] == "bf16" else "float32",
        "weights": "random (AutoModelForCausalLM.from_config), no download",
        "use_cache": setup.mode == "inference",
    }
    if setup.mode == "inference":
        s.update({"generate": "greedy (do_sample=False), min_new_tokens = max_new_tokens = new_tokens",
                  "cache_implementation": "dynamic (default)"})
    else:
        s.update({"optimizer": "torch.optim.AdamW(lr=1e-5, fused=False, foreach=default)",
                  "optimizer_state_dtype": "bfloat16" if recipe["weight_format"] == "bf16" else "float32",
                  "autocast": "bfloat16" if recipe["compute_precision"] == "amp_bf16" else None,
                  "loss": "causal LM loss over the batch's labels (input_ids)",
                  "steps_timed": setup.steps, "warmup_steps": 1})
        if setup.gradient_checkpointing:
            s["gradient_checkpointing_kwargs"] = {"use_reentrant": False}
    if setup.lora_rank:
        s["peft"] = {"r": setup.lora_rank, "lora_alpha": 2 * setup.lora_rank, "lora_dropout": 0.0,
                     "target_modules": list(setup.lora_targets), "adapter_dtype": "float32 (peft's default autocast_adapter_dtype)"}
    if env.get("cpu"):
        s["host_cpu"] = env["cpu"]
    return s


# config.json names of GPT-2 -> the names CASES.md's architecture uses (as case T20 writes them).
GPT2_NAMES = {"n_layer": "num_hidden_layers", "n_embd": "hidden_size", "n_head": "num_attention_heads",
              "n_positions": "max_position_embeddings", "activation_function": "hidden_act"}


def case_architecture(config: dict) -> dict:
    """The case's model/architecture: config.json's values under CASES.md's names."""
    if config.get("model_type") != "gpt2":
        return dict(config)
    arch = {GPT2_NAMES.get(k, k): v for k, v in config.items() if k != "n_inner"}
    arch["intermediate_size"] = config.get("n_inner") or 4 * config["n_embd"]
    arch.update({"position_embedding": "learned", "attention_bias": True})
    return arch


def attention_shapes(setup: Setup, config: dict) -> tuple | None:
    """What cuDNN attention keys its built graphs by (PyTorch's aten/src/ATen/native/cudnn/MHA.cpp,
    per thread, never evicted) for an SDPA generate() setup: (heads, key/value heads, head size,
    dtype, batch) and the key lengths its decode steps run, (first, last). None where the config
    does not give the heads."""
    arch = case_architecture(config)
    heads, hidden = arch.get("num_attention_heads"), arch.get("hidden_size")
    if not heads or not (arch.get("head_dim") or hidden):
        return None
    head = arch.get("head_dim") or hidden // heads
    key = (heads, arch.get("num_key_value_heads") or heads, head, RECIPES[setup.recipe]["weight_format"], setup.batch)
    return key, (setup.sequence + 1, setup.sequence + setup.new_tokens - 1)


def shapes_seen(seen: dict, shapes: tuple | None) -> bool:
    """Whether an earlier setup's decode steps (`seen`: key -> key-length ranges) ran every key
    length of `shapes` with the same heads, dtype and batch."""
    if shapes is None:
        return False
    key, (first, last) = shapes
    return any(a <= first and last <= b for a, b in seen.get(key, ()))


def make_case(setup: Setup, model: dict, figure: str, value: float, env: dict, shapes_seen: bool = False) -> dict:
    """One case: `figure` is one of setup.measures(); `value` what the run measured (bytes for
    torch_max_allocated, tokens/s for speeds); `env` the run's versions, GPU and host; `shapes_seen`
    whether an earlier setup of the same process ran this one's attention_shapes."""
    recipe = RECIPES[setup.recipe]
    memory = figure == "torch_max_allocated"
    suffix = {"torch_max_allocated": "MEM", "decode_tokens_per_second": "DEC",
              "prefill_tokens_per_second": "PRE", "training_tokens_per_second_per_gpu": "TRAIN"}[figure]
    workload = _workload(setup)
    if memory:
        measured = {"value": round(value / 2**30, 4), "unit": "GiB", "metric": "torch_max_allocated"}
    elif figure == "training_tokens_per_second_per_gpu":
        workload.update({"phase": "training", "micro_batch_size": setup.batch, "global_batch_size": setup.batch,
                         "input_length": setup.sequence})
        measured = {"value": round(value, 2), "unit": "tokens/s/GPU", "metric": "tokens_per_second_per_gpu",
                    "scope": "per_gpu"}
    else:
        decode = figure == "decode_tokens_per_second"
        workload.update({"phase": "decode" if decode else "prefill", "concurrency": setup.batch,
                         "input_length": setup.sequence, "output_length": setup.new_tokens if decode else 1})
        # The decode figure leaves the prompt's pass out (generate()'s time minus one prefill's): the
        # decode steps' tokens per second at the batch, not output_tokens_per_second (prompts included).
        measured = {"value": round(value, 2), "unit": "tokens/s", "metric": "tokens_per_second", "scope": "system"}
    name = model.get("hf_id") or setup.model
    settings = _settings(setup, env)
    # The prompt's pass is timed after a warm-up of the same prompt; the decode steps' shapes are new
    # to the process unless an earlier setup ran them.
    if figure == "prefill_tokens_per_second" or (figure == "decode_tokens_per_second" and shapes_seen):
        settings["attention_shapes_seen"] = True
    how = {
        "torch_max_allocated": "torch.cuda.max_memory_allocated() after reset_peak_memory_stats(), over the whole "
        + ("generate() call" if setup.mode == "inference" else "warm-up and timed steps (forward, backward, optimizer.step)"),
        "decode_tokens_per_second": "new tokens x batch over generate()'s time minus one prefill's (torch.cuda.synchronize around each)",
        "prefill_tokens_per_second": "prompt tokens x batch over one forward pass of the prompt (median of 3, after a warm-up)",
        "training_tokens_per_second_per_gpu": "batch x sequence tokens over the median step time (forward, backward, optimizer.step, zero_grad)",
    }[figure]
    return {
        "id": f"{setup.id}-{suffix}",
        "quantity": "memory" if memory else "throughput",
        "model": {"name": f"{name} (random weights from its config.json values)",
                  "params": model.get("published_parameters") or model.get("computed_parameters"),
                  "architecture": case_architecture(model["config"])},
        "workload": workload,
        "hardware": {"gpu": env.get("gpu", "unspecified"), "gpu_count": 1, "tensor_parallel": 1,
                     "pipeline_parallel": 1, "data_parallel_sharding": "none", "cpu_offload": False},
        "runtime": {"framework": framework(setup), "version": versions_text(env), "settings": settings},
        "measured": measured,
        "source": f"{SOURCE}, run {env.get('date', 'undated')} on {env.get('gpu_name', 'an unnamed GPU')}",
        "confidence": "high",
        "notes": (f"Measured by scripts/measure ({how}). Versions: {versions_text(env)}; driver "
                  f"{env.get('driver', 'not read')}; GPU {env.get('gpu_name', '?')}; host CPU {env.get('cpu', 'not read')}. "
                  f"Recipe {setup.recipe}: weights {recipe['weight_format']}, compute {recipe['compute_precision']}."),
    }


def _fail(faults: list, path: str, message: str) -> None:
    faults.append(f"{path}: {message}")


def _number(faults, obj, key, path, minimum=None, integer=False, optional=False):
    value = obj.get(key) if isinstance(obj, dict) else None
    if value is None:
        if not optional:
            _fail(faults, f"{path}/{key}", "expected a number, got nothing")
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        _fail(faults, f"{path}/{key}", f"expected a number, got {value!r}")
    elif integer and int(value) != value:
        _fail(faults, f"{path}/{key}", f"expected a whole number, got {value!r}")
    elif minimum is not None and value < minimum:
        _fail(faults, f"{path}/{key}", f"expected at least {minimum}, got {value!r}")


def _choice(faults, obj, key, path, allowed, optional=False):
    value = obj.get(key) if isinstance(obj, dict) else None
    if value is None and optional:
        return
    if value not in allowed:
        _fail(faults, f"{path}/{key}", f"expected one of {', '.join(allowed)}, got {value!r}")


def _object(faults, obj, key, path):
    value = obj.get(key)
    if not isinstance(value, dict):
        _fail(faults, f"{path}/{key}", f"expected an object, got {value!r}")
        return {}
    return value


def validate_case(case: object) -> list[str]:
    """The faults of a case against CASES.md, each 'JSON path: what was expected'; empty when valid."""
    faults: list[str] = []
    if not isinstance(case, dict):
        return [f": expected a case object, got {case!r}"]
    for key in ("id", "source", "notes"):
        if not isinstance(case.get(key), str) or not case[key].strip():
            _fail(faults, f"/{key}", "expected a non-empty string")
    _choice(faults, case, "quantity", "", ("memory", "throughput"))
    _choice(faults, case, "confidence", "", ("high", "medium", "low"))
    model = _object(faults, case, "model", "")
    if not isinstance(model.get("name"), str) or not model.get("name"):
        _fail(faults, "/model/name", "expected a non-empty string")
    _number(faults, model, "params", "/model", minimum=1, integer=True)
    arch = _object(faults, model, "architecture", "/model")
    for key in ARCHITECTURE_REQUIRED:
        if key == "model_type":
            if not isinstance(arch.get(key), str):
                _fail(faults, "/model/architecture/model_type", "expected a string (config.json's model_type)")
        else:
            _number(faults, arch, key, "/model/architecture", minimum=1, integer=True)
    w = _object(faults, case, "workload", "")
    _choice(faults, w, "mode", "/workload", MODES)
    if not isinstance(w.get("weight_format"), str):
        _fail(faults, "/workload/weight_format", "expected a string such as bf16 or fp32")
    _choice(faults, w, "compute_precision", "/workload", COMPUTE, optional=True)
    _number(faults, w, "batch_size", "/workload", minimum=1, integer=True)
    _number(faults, w, "sequence_length", "/workload", minimum=1, integer=True)
    _number(faults, w, "new_tokens", "/workload", minimum=1, integer=True, optional=True)
    _choice(faults, w, "attention_implementation", "/workload", ("eager", "sdpa", "flash_attention_2"), optional=True)
    for key in ("gradient_checkpointing", "flash_attention"):
        if key in w and w[key] is not None and not isinstance(w[key], bool):
            _fail(faults, f"/workload/{key}", f"expected true, false or null, got {w[key]!r}")
    if w.get("lora") is not None:
        lora = w["lora"] if isinstance(w["lora"], dict) else {}
        _number(faults, lora, "rank", "/workload/lora", minimum=1, integer=True)
        if not isinstance(lora.get("target_modules"), list):
            _fail(faults, "/workload/lora/target_modules", "expected a list of module names")
    hw = _object(faults, case, "hardware", "")
    if not isinstance(hw.get("gpu"), str) or not hw.get("gpu"):
        _fail(faults, "/hardware/gpu", "expected the GPU's name")
    for key in ("gpu_count", "tensor_parallel", "pipeline_parallel"):
        _number(faults, hw, key, "/hardware", minimum=1, integer=True)
    _choice(faults, hw, "data_parallel_sharding", "/hardware", SHARDING)
    runtime = _object(faults, case, "runtime", "")
    if not isinstance(runtime.get("framework"), str) or not runtime.get("framework"):
        _fail(faults, "/runtime/framework", "expected the framework's name")
    if not isinstance(runtime.get("settings", {}), dict):
        _fail(faults, "/runtime/settings", "expected an object")
    m = _object(faults, case, "measured", "")
    _number(faults, m, "value", "/measured", minimum=0)
    _choice(faults, m, "unit", "/measured", UNITS)
    metrics = MEMORY_METRICS if case.get("quantity") == "memory" else THROUGHPUT_METRICS
    _choice(faults, m, "metric", "/measured", metrics)
    if case.get("quantity") == "throughput":
        _choice(faults, w, "phase", "/workload", PHASES)
        _choice(faults, m, "scope", "/measured", ("per_gpu", "system"), optional=True)
    return faults
